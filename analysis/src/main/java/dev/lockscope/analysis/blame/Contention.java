package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * One span of one thread's wait for a lock, with its cause. A single wait is split into several
 * records when the lock changed hands while the thread waited (seed 001 Fig. 4.4: T3 waits first on
 * T1, then on T2).
 *
 * @param waiterFrames the waiting thread's call chain, innermost first, as recorded (not filtered)
 * @param afterWait    the wait re-acquires the lock after {@code Object.wait} or {@code Condition.await}
 *                     returned (seed 001 §4.2.2 "preceded by conditional waiting")
 */
public record Contention(LockId lock, ThreadRef waiter, List<String> waiterFrames, long beginNanos,
                         long durationNanos, Cause cause, boolean afterWait) {
    public Contention {
        waiterFrames = List.copyOf(waiterFrames);
    }

    public long endNanos() {
        return beginNanos + durationNanos;
    }
}
