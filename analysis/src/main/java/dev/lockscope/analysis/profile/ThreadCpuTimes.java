package dev.lockscope.analysis.profile;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every JVM thread's CPU time over the sampled part of a recording, with the machine's steal time
 * divided among them ({@link StealAccounting}) and their CPU time corrected by it: the thread table
 * and the report header's steal per second. From the agent's {@code lockscope.MachineCpu} and
 * {@code lockscope.ThreadCpu} samples ({@link CpuTimeAnalysis}).
 *
 * @param problem                 why the agent could not sample (no /proc), or null
 * @param fromNanos               the first sample (epoch nanoseconds); deltas start there
 * @param toNanos                 the last sample
 * @param machineBusyNanos        all CPUs' busy time between the first and the last sample, steal excluded
 * @param machineStealNanos       all CPUs' steal time between them
 * @param threadTimesExcludeSteal 1 when the kernel already leaves steal out of threads' CPU times (the
 *                                corrected time is then the measured one), 0 when it counts it in, -1 unknown
 *                                (corrected as if counted in, as in the thesis)
 * @param threads                 most CPU first
 */
public record ThreadCpuTimes(String problem, long fromNanos, long toNanos, int cpus, long samples,
                             long machineBusyNanos, long machineStealNanos, int threadTimesExcludeSteal,
                             List<Row> threads) {
    /**
     * One thread.
     *
     * @param cpuNanos       CPU time as the OS counted it between the first and the last sample
     * @param stealNanos     its share of the machine's steal, in proportion to its CPU time per sample
     * @param correctedNanos its CPU time without the steal
     */
    public record Row(long osTid, String name, long cpuNanos, long stealNanos, long correctedNanos) {
    }

    public ThreadCpuTimes {
        threads = List.copyOf(threads);
    }

    /** Whether there are at least two samples, so that there are deltas. */
    public boolean sampled() {
        return problem == null && toNanos > fromNanos;
    }

    public long sampledNanos() {
        return toNanos - fromNanos;
    }

    /** The machine's steal per second of the sampled time, all CPUs together, in nanoseconds. */
    public double stealNanosPerSecond() {
        return sampled() ? machineStealNanos * 1e9 / sampledNanos() : 0;
    }

    /** Steal as a share of the machine's apparent CPU time (busy + steal). */
    public double stealShare() {
        long apparent = machineBusyNanos + machineStealNanos;
        return apparent == 0 ? 0 : (double) machineStealNanos / apparent;
    }

    public long jvmCpuNanos() {
        return threads.stream().mapToLong(Row::cpuNanos).sum();
    }

    public long jvmStealNanos() {
        return threads.stream().mapToLong(Row::stealNanos).sum();
    }

    /** Each thread's attributed steal by OS thread id (the bottle graph's boxes are OS threads). */
    public Map<Integer, Long> stealByOsTid() {
        Map<Integer, Long> out = new HashMap<>();
        for (Row r : threads) {
            out.merge((int) r.osTid(), r.stealNanos(), Long::sum);
        }
        return out;
    }
}
