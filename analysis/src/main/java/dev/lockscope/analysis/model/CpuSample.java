package dev.lockscope.analysis.model;

import java.util.List;

/** {@code jdk.ExecutionSample}: {@code thread} was running Java code at {@code timeNanos}. */
public record CpuSample(ThreadRef thread, long timeNanos, List<String> frames) {
}
