package dev.lockscope.analysis.profile;

/**
 * The weight of a CPU sample in a wall-clock profile, by the rule of stack fragment sampling (Hofer,
 * <i>Method Profiling and Lock Contention Profiling on the JVM Level</i>, §3.2.5): a sample stands for
 * the time until the same thread's next sample, and a switch-out sample for the whole time off CPU.
 * Here the off-CPU time is not sampled but recorded: the thread's lock, park, wait, sleep and I/O
 * events carry their durations and their own stacks (each wait is weighted by its duration), so a
 * running sample stands for the time to the thread's next sample or recorded wait, but never for more
 * than the sampling period: a gap longer than that is time off CPU that no event recorded (a wait
 * below the recording's threshold), not running time. The first sample after a recorded wait also
 * stands for the time since the wait ended ({@link #sinceResume}).
 */
public final class WallClockWeights {
    private WallClockWeights() {
    }

    /**
     * @param sampleNanos   the sample's time
     * @param nextNanos     the start of the thread's next sample or recorded wait, or {@link Long#MAX_VALUE} if none
     * @param endNanos      the end of the thread (or of the recording) when there is no next event
     * @param periodNanos   the sampling period the samples were taken at
     * @return the nanoseconds this running sample stands for
     */
    public static long runningSample(long sampleNanos, long nextNanos, long endNanos, long periodNanos) {
        long until = nextNanos == Long.MAX_VALUE ? endNanos : nextNanos;
        return Math.max(0, Math.min(until - sampleNanos, periodNanos));
    }

    /**
     * The running time between the end of a recorded wait and the thread's first sample after it, which
     * no earlier sample stands for (their weights stop where the wait began): it goes to that first
     * sample, at most one period. In stack fragment sampling the switch-out sample takes this span; here
     * the wait's duration is exact, so the span is running time, and the next sample's stack is the best
     * one known for it.
     *
     * @param previousSampleNanos the thread's previous sample, or {@link Long#MIN_VALUE} if none
     * @param lastWaitEndNanos    the end of the thread's last recorded wait before this sample, or
     *                            {@link Long#MIN_VALUE} if none
     * @return the nanoseconds this sample stands for before its own time (0 unless a wait ended since
     *         the previous sample)
     */
    public static long sinceResume(long sampleNanos, long previousSampleNanos, long lastWaitEndNanos, long periodNanos) {
        if (lastWaitEndNanos == Long.MIN_VALUE || lastWaitEndNanos < previousSampleNanos || lastWaitEndNanos > sampleNanos) {
            return 0;
        }
        return Math.min(sampleNanos - lastWaitEndNanos, periodNanos);
    }
}
