package dev.lockscope.analysis.blame;

import dev.lockscope.core.CallStack;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * All contention of one waiter thread and call chain on one lock blamed on one cause: the spans of
 * waiting with this key, counted and summed. A single wait is split into several spans when the lock
 * changed hands while the thread waited (Hofer Fig. 4.4: T3 waits first on T1, then on T2). Every
 * tree, row and share is a sum over these, so a recording of any length gives a bounded number.
 *
 * @param waiterFrames    the waiting thread's call chain, innermost first, as recorded (not filtered)
 * @param afterWait       the wait re-acquires the lock after {@code Object.wait} or {@code Condition.await}
 *                        returned (Hofer §4.2.2 "preceded by conditional waiting")
 * @param count           spans of contention
 * @param nanos           their total length
 * @param firstBeginNanos begin of the earliest span (ties: the shorter): orders equal keys deterministically
 * @param firstNanos      length of that span
 */
public record Contention(LockId lock, ThreadRef waiter, List<String> waiterFrames, Cause cause, boolean afterWait,
                         long count, long nanos, long firstBeginNanos, long firstNanos) {
    public Contention {
        waiterFrames = CallStack.copyOf(waiterFrames);
    }
}
