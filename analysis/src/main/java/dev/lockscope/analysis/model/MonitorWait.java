package dev.lockscope.analysis.model;

import java.util.List;

/** {@code jdk.JavaMonitorWait}: {@code Object.wait}; notifier is null when it timed out or is unknown. */
public record MonitorWait(ThreadRef thread, String monitorClass, long address, long beginNanos, long endNanos,
                          ThreadRef notifier, boolean timedOut, long timeoutMillis, List<String> frames) {
    /**
     * Whether another thread's notify ended the wait: the waiter waited for something that thread did
     * (released, produced), so the wait counts as a wait/notify lock's ({@code LockKind.WAIT}); a
     * timeout, a wait nobody is known to have ended and a thread's notify of itself do not.
     */
    public boolean wokenByAnotherThread() {
        return !timedOut && notifier != null && notifier.javaTid() != 0 && notifier.javaTid() != thread.javaTid();
    }

    /**
     * Whether the wait counts as a wait/notify lock's ({@code LockKind.WAIT}): woken by another thread, and
     * not a join or a process wait, which the JVM's notify ends when a thread or process ends: nothing was
     * held (the report's rules call those "other"; the table, the blame and what-if leave them out alike).
     */
    public boolean isLockWait() {
        if (!wokenByAnotherThread()) {
            return false;
        }
        for (String f : frames) {
            if (f.startsWith("java.lang.Thread.join") || f.startsWith("java.lang.ProcessImpl.waitFor")) {
                return false;
            }
        }
        return true;
    }
}
