package dev.lockscope.analysis.model;

/**
 * {@code lockscope.MachineCpu}: the machine's cumulative busy and steal time (all CPUs) at one sample
 * of the agent's CPU-time sampler, after the {@link ThreadCpu}s of the same {@code sample}.
 *
 * @param threadTimesExcludeSteal 1 when the kernel leaves steal out of threads' CPU times, 0 when it
 *                                counts it in, -1 unknown ({@code dev.lockscope.core.CpuTimes})
 * @param problem                 why the agent could not read the counters (they are 0 then), or null
 */
public record MachineCpu(long timeNanos, long sample, long busyNanos, long stealNanos, int cpus,
                         int threadTimesExcludeSteal, String problem) {
}
