package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ThreadRef;

/**
 * The waiters of a convoy, summed: while more than {@link ParkBlame#EXACT_WAITERS} threads are parked
 * on one lock, each hold they all waited through from its start to its end is blamed once per group
 * of waiters with the same pool, chain and after-wait flag ({@link ParkBlame}), not once per thread.
 * Such a contention names this stand-in as its waiter: thread id -1, named by the pool. Everything
 * else of its key (lock, chain, owner) is exact, and so are its length and span count.
 *
 * <p>Why: in a convoy of N threads every hand-off splits the wait of every thread behind it, so
 * contention by waiter thread × owner has N²/2 records (2,000 threads: 2 million); by group it has N.
 */
public final class ConvoyWaiters {
    /** The thread id of a group's stand-in: no Java thread has it. */
    public static final long TID = -1;

    private ConvoyWaiters() {
    }

    /** The stand-in for the waiters of one pool ({@link dev.lockscope.analysis.model.VirtualThreads#poolOf}). */
    static ThreadRef of(String pool) {
        return new ThreadRef(TID, 0, pool);
    }

    /** Whether this waiter is a group of a convoy's waiters rather than one thread. */
    public static boolean isGroup(ThreadRef waiter) {
        return waiter != null && waiter.javaTid() == TID;
    }

    /** The waiter-thread key of a group: its pool, marked as a convoy. */
    static String threadKey(ThreadRef group) {
        return "(convoy of " + group.name() + ")";
    }
}
