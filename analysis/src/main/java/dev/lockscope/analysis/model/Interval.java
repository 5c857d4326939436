package dev.lockscope.analysis.model;

import java.util.List;

/**
 * A span a thread spent in some state recorded by JFR (e.g. {@code jdk.ThreadSleep},
 * socket and file I/O, a blocked monitor entry).
 */
public record Interval(String eventType, ThreadRef thread, long beginNanos, long endNanos, List<String> frames) {
}
