package dev.lockscope.analysis.model;

/** {@code lockscope.ThreadCpu}: one JVM thread's cumulative CPU time at one sample (see {@link MachineCpu}). */
public record ThreadCpu(long timeNanos, long sample, long osTid, String osName, long cpuNanos) {
}
