package dev.lockscope.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** The MXBean over {@link LiveMetrics}: the same snapshot as the Prometheus endpoint. */
final class LockContention implements LockContentionMXBean {
    static final String OBJECT_NAME = "dev.lockscope:type=LockContention";

    private final Supplier<LiveMetrics.Snapshot> snapshots;

    LockContention(Supplier<LiveMetrics.Snapshot> snapshots) {
        this.snapshots = snapshots;
    }

    @Override
    public LockEntry[] getTopLocks() {
        LiveMetrics.Snapshot s = snapshots.get();
        List<LockEntry> out = new ArrayList<>();
        s.top().forEach(l -> out.add(new LockEntry(l)));
        out.add(new LockEntry(s.other()));
        return out.toArray(new LockEntry[0]);
    }

    @Override
    public int getLocks() {
        return snapshots.get().locks();
    }

    @Override
    public long getUntrackedParks() {
        return snapshots.get().untrackedParks();
    }

    @Override
    public double getPinnedVirtualThreadSeconds() {
        long pinned = snapshots.get().pinnedNanos();
        return pinned < 0 ? -1 : pinned / 1e9;
    }

    @Override
    public long getHookErrors() {
        return snapshots.get().hookErrors();
    }

    @Override
    public long getStackBudgetRefusedParks() {
        return snapshots.get().parksRefused();
    }

    @Override
    public long getStackBudgetRefusedUnparks() {
        return snapshots.get().unparksRefused();
    }

    @Override
    public long getRecordingBytes() {
        return snapshots.get().recordingBytes();
    }
}
