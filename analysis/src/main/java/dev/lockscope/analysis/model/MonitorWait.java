package dev.lockscope.analysis.model;

import dev.lockscope.core.NotifiedWaits;

import java.util.List;

/** {@code jdk.JavaMonitorWait}: {@code Object.wait}; notifier is null when it timed out or is unknown. */
public record MonitorWait(ThreadRef thread, String monitorClass, long address, long beginNanos, long endNanos,
                          ThreadRef notifier, boolean timedOut, long timeoutMillis, List<String> frames) {
    /** Whether the wait counts as a wait/notify lock's ({@code LockKind.WAIT}): {@link NotifiedWaits}' rule. */
    public boolean isLockWait() {
        return NotifiedWaits.isLockWait(timedOut, notifier == null ? 0 : notifier.javaTid(), thread.javaTid(), frames);
    }
}
