package dev.lockscope.analysis.model;

import java.util.List;

/**
 * One park of a thread on a java.util.concurrent blocker, from a {@code lockscope.ParkBegin} and its
 * {@code lockscope.ParkEnd} (matched by thread and {@code beginSeq}).
 *
 * @param endNanos   {@link #OPEN} when the park had not ended (yet, or when the recording stopped)
 * @param beginSeq   global sequence number taken at park begin
 * @param endSeq     global sequence counter read after waking (0 when open); the unpark that woke
 *                   this park is the first {@link Unpark} of this thread with beginSeq &lt; seq &lt;= endSeq
 * @param ownerTid   the blocker's exclusive owner when parking (AbstractOwnableSynchronizer), 0 if none
 * @param frames     the waiter's call chain at park begin, innermost first, lockscope's hook frames removed
 */
public record ParkWait(ThreadRef thread, String blockerClass, int blockerHash, long beginNanos, long endNanos,
                       long beginSeq, long endSeq, boolean timedOut, long ownerTid, String ownerName,
                       long timeoutNanos, long deadlineMillis, List<String> frames) {
    /** End time of a wait still in progress. */
    public static final long OPEN = Long.MIN_VALUE;

    public boolean isOpen() {
        return endNanos == OPEN;
    }

    public long durationNanos(long recordingEnd) {
        return (isOpen() ? recordingEnd : endNanos) - beginNanos;
    }

    /** This park, ended at {@code endNanos} with the counter value {@code endSeq}. */
    public ParkWait ended(long endNanos, long endSeq, boolean timedOut) {
        return new ParkWait(thread, blockerClass, blockerHash, beginNanos, endNanos, beginSeq, endSeq, timedOut, ownerTid,
                ownerName, timeoutNanos, deadlineMillis, frames);
    }

    /** This park as it was while open. */
    public ParkWait asOpen() {
        return isOpen() ? this : new ParkWait(thread, blockerClass, blockerHash, beginNanos, OPEN, beginSeq, 0, false,
                ownerTid, ownerName, timeoutNanos, deadlineMillis, frames);
    }
}
