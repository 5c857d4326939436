package dev.lockscope.analysis.scale;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One run of the workload at one point of the sweep, as measured.
 *
 * @param repeat     0-based repetition of this (threads, cpus) point
 * @param cpus       CPUs the run was allowed (taskset and -XX:ActiveProcessorCount)
 * @param throughput operations per second read from the workload's output; NaN when the run failed
 * @param recording  its JFR recording, null when none was written
 * @param failure    why the run does not count (exit code, no throughput line), null when it does
 * @param durationNanos length of the recording (0 without one): the denominator of lock shares
 * @param locks      contended locks of the recording, empty without one
 */
public record PointRun(int threads, int cpus, int repeat, double throughput, Path recording, String failure,
                       long durationNanos, List<ContendedLock> locks) {
    public PointRun {
        locks = List.copyOf(locks);
    }

    public static PointRun failed(int threads, int cpus, int repeat, Path recording, String failure) {
        return new PointRun(threads, cpus, repeat, Double.NaN, recording, Objects.requireNonNull(failure), 0, List.of());
    }

    public boolean ok() {
        return failure == null;
    }
}
