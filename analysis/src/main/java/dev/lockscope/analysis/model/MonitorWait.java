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
}
