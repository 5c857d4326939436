package dev.lockscope.analysis.model;

import java.util.List;

/**
 * One park of a thread on a java.util.concurrent blocker, from one {@code lockscope.Park} or {@code lockscope.IdlePark} event.
 *
 * @param endNanos   {@link #OPEN} when the park had not ended (yet, or when the recording stopped)
 * @param beginSeq   the thread's hand-off number (its unpark counter) when it parked ({@code handoffAtPark})
 * @param endSeq     the same after it woke ({@code handoffAtWake}; 0 when open); the unpark that woke
 *                   this park is the {@link Unpark} of this thread with seq == beginSeq + 1, and there is
 *                   none when endSeq == beginSeq
 * @param ownerTid   the blocker's exclusive owner when parking (AbstractOwnableSynchronizer), 0 if none
 * @param frames     the waiter's call chain at park begin, innermost first, lockscope's hook frames removed;
 *                   empty for an idle park
 * @param idle       from a {@code lockscope.IdlePark}: the blocker's first park waited where a worker waits
 *                   for work, and the agent recorded this one without a stack
 * @param weight     1 when the park was recorded for itself; else the agent sampled it (a park shorter than
 *                   its {@code sampleBelow}, recorded with a probability p that grows with its length) and it
 *                   stands for 1/p parks like it: every part of its wait (a span blamed on one owner) counts
 *                   weight times, so sums over the recorded parks estimate the sums over all parks without bias
 *                   (Horvitz-Thompson)
 * @param unrecordedUnparks unparks of lock waiters this thread had made without recording them when it woke
 *                   ({@link Unpark#unrecordedBefore}); 0 in a recording without sampling
 */
public record ParkWait(ThreadRef thread, String blockerClass, int blockerHash, long beginNanos, long endNanos,
                       long beginSeq, long endSeq, boolean timedOut, long ownerTid, String ownerName,
                       long timeoutNanos, long deadlineMillis, List<String> frames, boolean idle, double weight,
                       long unrecordedUnparks) {
    /** End time of a wait still in progress. */
    public static final long OPEN = Long.MIN_VALUE;

    /** A park recorded with its stack ({@code lockscope.Park}). */
    public ParkWait(ThreadRef thread, String blockerClass, int blockerHash, long beginNanos, long endNanos,
                    long beginSeq, long endSeq, boolean timedOut, long ownerTid, String ownerName,
                    long timeoutNanos, long deadlineMillis, List<String> frames) {
        this(thread, blockerClass, blockerHash, beginNanos, endNanos, beginSeq, endSeq, timedOut, ownerTid, ownerName,
                timeoutNanos, deadlineMillis, frames, false, 1, 0);
    }

    /** A park recorded for itself, idle ({@code lockscope.IdlePark}) or not. */
    public ParkWait(ThreadRef thread, String blockerClass, int blockerHash, long beginNanos, long endNanos,
                    long beginSeq, long endSeq, boolean timedOut, long ownerTid, String ownerName,
                    long timeoutNanos, long deadlineMillis, List<String> frames, boolean idle) {
        this(thread, blockerClass, blockerHash, beginNanos, endNanos, beginSeq, endSeq, timedOut, ownerTid, ownerName,
                timeoutNanos, deadlineMillis, frames, idle, 1, 0);
    }

    /** Whether the agent sampled this park rather than recording it for itself. */
    public boolean sampled() {
        return weight != 1;
    }

    /** A park's weight from its event's {@code standsForNanos} (0: recorded for itself) and its length. */
    public static double weightOf(long standsForNanos, long lengthNanos) {
        return standsForNanos <= 0 ? 1 : standsForNanos / (double) Math.max(1, lengthNanos);
    }

    public boolean isOpen() {
        return endNanos == OPEN;
    }

    public long durationNanos(long recordingEnd) {
        return (isOpen() ? recordingEnd : endNanos) - beginNanos;
    }

    /** This park, ended at {@code endNanos} with the counter value {@code endSeq}. */
    public ParkWait ended(long endNanos, long endSeq, boolean timedOut) {
        return new ParkWait(thread, blockerClass, blockerHash, beginNanos, endNanos, beginSeq, endSeq, timedOut, ownerTid,
                ownerName, timeoutNanos, deadlineMillis, frames, idle, weight, unrecordedUnparks);
    }

    /** This park as it was while open. */
    public ParkWait asOpen() {
        return isOpen() ? this : new ParkWait(thread, blockerClass, blockerHash, beginNanos, OPEN, beginSeq, 0, false,
                ownerTid, ownerName, timeoutNanos, deadlineMillis, frames, idle, weight, unrecordedUnparks);
    }
}
