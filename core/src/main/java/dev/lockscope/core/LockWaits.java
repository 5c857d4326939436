package dev.lockscope.core;

import java.util.List;

/**
 * The waits on one lock (a park blocker or a monitor) collected from a recording, fed in begin
 * order, turned into {@link LockMetrics} by replaying them through {@link ParkTally}. Used by
 * {@code lockscope report} and by the agent's own table, so both group and measure waits alike.
 */
public final class LockWaits {
    private final LockKind kind;
    private final String className;
    private final String identity;
    private final long collectionThreshold;
    private final IntervalReplay waits = new IntervalReplay();
    private String firstThread = "?";
    private List<String> firstFrames = List.of();

    public LockWaits(LockKind kind, String className, String identity, long collectionThreshold) {
        this.kind = kind;
        this.className = className;
        this.identity = identity;
        this.collectionThreshold = collectionThreshold;
    }

    /**
     * Adds the next wait in begin order; {@code end} is {@link IntervalReplay#OPEN} for a wait
     * still in progress when the recording stopped.
     */
    public void add(long begin, long end, String thread, List<String> frames) {
        // §3.7.1/§3.7.2: the thread and stack of the first *monitored* park, i.e. the park with which
        // the collection threshold is reached. The replay counts parks in the same (begin) order.
        if (waits.size() == collectionThreshold) {
            firstThread = thread;
            firstFrames = frames;
        }
        waits.add(begin, end);
    }

    /** @return the metrics, or null when the collection threshold was never reached */
    public LockMetrics metrics(long totalExecutionNanos) {
        ParkTally tally = waits.tally(collectionThreshold);
        if (!tally.collecting) {
            return null;
        }
        return new LockMetrics(kind, className, identity, firstThread, firstFrames, tally, totalExecutionNanos);
    }
}
