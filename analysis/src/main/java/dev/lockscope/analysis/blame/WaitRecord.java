package dev.lockscope.analysis.blame;

import dev.lockscope.core.CallStack;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * Conditional waiting, reported apart from contention: {@code Object.wait} on a monitor, or
 * {@code Condition.await} (a park on an AQS ConditionObject). One record sums the waits of one waiter
 * thread and call chain on one lock with one notifier.
 *
 * @param notifier        for monitors JFR's notifier (the thread that called notify/notifyAll); for
 *                        conditions the thread whose unpark woke the waiter (the one that signalled, or
 *                        released the lock after signalling); {@link ThreadRef#UNKNOWN} on timeout or when
 *                        nobody is known
 * @param count           waits
 * @param nanos           their total length
 * @param notifierTookIn  for conditions, the notifier's own latest wait on the same condition before it woke
 *                        the waiter, innermost first: where it took what it then gave back (an exhausted pool's
 *                        borrower, the code that held the object until it returned it); empty when it had not
 *                        waited there, and for monitors
 * @param timedOut        how many of them timed out
 * @param firstBeginNanos begin of the earliest wait (ties: the shorter): orders equal keys deterministically
 * @param firstNanos      length of that wait
 */
public record WaitRecord(LockId lock, ThreadRef waiter, List<String> frames, ThreadRef notifier, List<String> notifierTookIn,
                         long count, long nanos, long timedOut, long firstBeginNanos, long firstNanos) {
    public WaitRecord {
        frames = CallStack.copyOf(frames);
        notifierTookIn = CallStack.copyOf(notifierTookIn);
    }
}
