package dev.lockscope.sched;

import java.util.List;
import java.util.Map;

/**
 * Scheduling data of one process over a window: thread names, transitions sorted by time, and (for
 * the /proc fallback) run-queue waits.
 *
 * @param approximateReason null when exact; otherwise why the parallelism figures are estimates,
 *                          to be shown in every output
 * @param cpus              online CPUs of the machine while recording
 * @param names             OS tid to thread name (/proc comm or perf COMM, at most 15 characters)
 * @param epochOffsetNanos  wall-clock epoch nanoseconds minus CLOCK_MONOTONIC nanoseconds when
 *                          recording began, to place JFR events (wall-clock instants) on this
 *                          trace's time line; {@link #UNKNOWN_OFFSET} if not recorded
 */
public record SchedTrace(SchedSource source, String approximateReason, long pid, int cpus,
                         long startNanos, long endNanos, Map<Integer, String> names,
                         List<Transition> transitions, List<RunQueueWait> runQueueWaits,
                         long epochOffsetNanos) {
    public static final long UNKNOWN_OFFSET = Long.MIN_VALUE;

    public SchedTrace(SchedSource source, String approximateReason, long pid, int cpus, long startNanos,
                      long endNanos, Map<Integer, String> names, List<Transition> transitions,
                      List<RunQueueWait> runQueueWaits) {
        this(source, approximateReason, pid, cpus, startNanos, endNanos, names, transitions, runQueueWaits,
                UNKNOWN_OFFSET);
    }

    /** The same trace with other thread names (e.g. Java names joined from a recording). */
    public SchedTrace withNames(Map<Integer, String> newNames) {
        return new SchedTrace(source, approximateReason, pid, cpus, startNanos, endNanos, newNames, transitions,
                runQueueWaits, epochOffsetNanos);
    }

    public SchedTrace withEpochOffset(long offset) {
        return new SchedTrace(source, approximateReason, pid, cpus, startNanos, endNanos, names, transitions,
                runQueueWaits, offset);
    }

    /**
     * Epoch minus monotonic nanoseconds now, from the closest of a few paired readings (the pair
     * with the shortest gap bounds the error).
     */
    public static long currentEpochOffset() {
        long best = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i < 5; i++) {
            long a = System.nanoTime();
            java.time.Instant now = java.time.Instant.now();
            long b = System.nanoTime();
            if (b - a < best) {
                best = b - a;
                offset = now.getEpochSecond() * 1_000_000_000L + now.getNano() - (a + (b - a) / 2);
            }
        }
        return offset;
    }
    public SchedTrace {
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("window ends before it starts");
        }
        names = Map.copyOf(names);
        transitions = List.copyOf(transitions);
        runQueueWaits = List.copyOf(runQueueWaits);
    }

    public boolean approximate() {
        return approximateReason != null;
    }

    public String nameOf(int tid) {
        return names.getOrDefault(tid, "tid-" + tid);
    }
}
