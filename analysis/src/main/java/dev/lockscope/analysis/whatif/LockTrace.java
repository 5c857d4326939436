package dev.lockscope.analysis.whatif;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * The holds of every modelled lock, per thread, in the thread's own time order ({@link HoldTrace}).
 *
 * @param locks     every lock seen; {@link Hold#lock()} indexes it
 * @param threads   the threads that held a modelled lock, in the order of {@code holds}
 * @param holds     per thread, its holds by grant time
 * @param truncated the trace was cut at {@code endNanos} to stay within its bound
 */
public record LockTrace(List<LockId> locks, List<ThreadRef> threads, List<List<Hold>> holds, long startNanos,
                        long endNanos, boolean truncated) {
    public LockTrace {
        locks = List.copyOf(locks);
        threads = List.copyOf(threads);
        holds = holds.stream().map(List::copyOf).toList();
    }

    /** Holds of {@code lock} in all threads. */
    public int holdCount(int lock) {
        int n = 0;
        for (List<Hold> hs : holds) {
            for (Hold h : hs) {
                if (h.lock() == lock) {
                    n++;
                }
            }
        }
        return n;
    }
}
