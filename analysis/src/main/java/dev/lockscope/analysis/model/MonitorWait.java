package dev.lockscope.analysis.model;

import java.util.List;

/** {@code jdk.JavaMonitorWait}: {@code Object.wait}; notifier is null when it timed out or is unknown. */
public record MonitorWait(ThreadRef thread, String monitorClass, long address, long beginNanos, long endNanos,
                          ThreadRef notifier, boolean timedOut, long timeoutMillis, List<String> frames) {
}
