package dev.lockscope.analysis.bottle;

import dev.lockscope.analysis.model.CarrierMount;
import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.VirtualThreads;
import dev.lockscope.core.ThreadNames;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link VirtualThreadMounts} of a recording, from its {@code lockscope.CarrierMount} events (agent
 * option {@code carriers}) in the one pass of the reader: each carrier by its OS thread id, each virtual
 * thread by a key of its own and its pool, named as {@code --group-by waiter-pool} names it (an unnamed
 * virtual thread by the root of its task, from any stack the recording has of it).
 */
public final class CarrierMountCollector implements RecordingVisitor {
    /** JFR's default stack depth: a stack this deep may have lost its root frames. */
    private static final int CUT_DEPTH = 64;

    private List<CarrierMount> raw = new ArrayList<>();
    /** A stack of each virtual thread, by Java thread id: the root of its task names its pool. */
    private final Map<Long, List<String>> stacks = new HashMap<>();
    private VirtualThreadMounts result = VirtualThreadMounts.NONE;

    @Override
    public void carrierMount(CarrierMount m) {
        raw.add(m);
    }

    @Override
    public void cpuSample(CpuSample s) {
        note(s.thread(), s.frames());
    }

    @Override
    public void parkEnd(ParkWait ended) {
        note(ended.thread(), ended.frames());
    }

    @Override
    public void monitorEnter(MonitorEnter e) {
        note(e.thread(), e.frames());
    }

    @Override
    public void sleep(Interval i) {
        note(i.thread(), i.frames());
    }

    private void note(ThreadRef t, List<String> frames) {
        if (frames.isEmpty() || !(t.virtual() || VirtualThreads.isVirtual(t))) {
            return;
        }
        List<String> kept = stacks.get(t.javaTid());
        if (kept == null || kept.size() >= CUT_DEPTH && frames.size() < CUT_DEPTH) {
            stacks.put(t.javaTid(), frames);
        }
    }

    @Override
    public void finish(RecordingInfo info) {
        result = resolve(raw, info.threads(), stacks);
        raw = List.of();
    }

    /**
     * The mounts on OS thread ids, keyed virtual threads and their pools. A carrier the recording does not
     * name with an OS thread id is left out (its time stays its own).
     */
    static VirtualThreadMounts resolve(List<CarrierMount> mounts, Map<Long, ThreadRef> threads,
                                       Map<Long, List<String>> stacks) {
        if (mounts.isEmpty()) {
            return VirtualThreadMounts.NONE;
        }
        Map<Long, Integer> keys = new HashMap<>();
        Map<Integer, String> pools = new HashMap<>();
        List<VirtualThreadMounts.Mount> out = new ArrayList<>(mounts.size());
        long lost = 0;
        for (CarrierMount m : mounts) {
            lost += m.lostBefore();
            ThreadRef carrier = threads.get(m.carrierJavaTid());
            if (carrier == null || carrier.osTid() <= 0 || carrier.osTid() > Integer.MAX_VALUE) {
                continue;
            }
            Integer key = keys.get(m.virtualThreadId());
            if (key == null) {
                key = -(keys.size() + 1);
                keys.put(m.virtualThreadId(), key);
                long id = m.virtualThreadId();
                ThreadRef known = threads.get(id);
                ThreadRef vt = known != null ? known : new ThreadRef(id, 0, ThreadNames.virtual(id, null), true);
                pools.put(key, VirtualThreads.poolOf(vt, stacks.getOrDefault(id, List.of())));
            }
            out.add(new VirtualThreadMounts.Mount((int) carrier.osTid(), key, m.mountNanos(), m.unmountNanos()));
        }
        return new VirtualThreadMounts(out, pools, lost);
    }

    /** Which virtual thread ran on which carrier when; empty before {@link #finish} or without the events. */
    public VirtualThreadMounts result() {
        return result;
    }
}
