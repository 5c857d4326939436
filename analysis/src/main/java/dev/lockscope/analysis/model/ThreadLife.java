package dev.lockscope.analysis.model;

/** {@code jdk.ThreadStart} or {@code jdk.ThreadEnd} of {@code thread} at {@code timeNanos}. */
public record ThreadLife(ThreadRef thread, long timeNanos, boolean ended) {
}
