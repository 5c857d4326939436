package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * Conditional waiting, reported apart from contention: {@code Object.wait} on a monitor, or
 * {@code Condition.await} (a park on an AQS ConditionObject).
 *
 * @param notifier for monitors JFR's notifier (the thread that called notify/notifyAll); for
 *                 conditions the thread whose unpark woke the waiter (the one that signalled, or
 *                 released the lock after signalling); {@link ThreadRef#UNKNOWN} on timeout or when
 *                 nobody is known
 */
public record WaitRecord(LockId lock, ThreadRef waiter, List<String> frames, long beginNanos, long durationNanos,
                         ThreadRef notifier, boolean timedOut) {
    public WaitRecord {
        frames = List.copyOf(frames);
    }
}
