package dev.lockscope.analysis.model;

import java.util.List;

/**
 * {@code lockscope.Unpark}: {@code thread} woke {@code targetTid}, parked on the given blocker.
 *
 * @param seq    the target thread's hand-off number taken by this unpark ({@code handoff})
 * @param frames the unparking (releasing) thread's call chain, innermost first, hook frames removed
 * @param unrecordedBefore unparks of lock waiters the unparking thread made without recording them before this
 *               one (their parks were not sampled; 0 in a recording without sampling)
 */
public record Unpark(ThreadRef thread, long timeNanos, long seq, long targetTid, String targetName,
                     String blockerClass, int blockerHash, List<String> frames, long unrecordedBefore) {
    public Unpark(ThreadRef thread, long timeNanos, long seq, long targetTid, String targetName, String blockerClass,
                  int blockerHash, List<String> frames) {
        this(thread, timeNanos, seq, targetTid, targetName, blockerClass, blockerHash, frames, 0);
    }
}
