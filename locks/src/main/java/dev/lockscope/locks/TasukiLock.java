package dev.lockscope.locks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Tasuki lock (Kawachiya, Koseki and Onodera, "Lock reservation"-era IBM JDK; Kawachiya, "Java Locks:
 * Analysis and Acceleration", ch. 4): a thin lock whose uncontended acquire is one CAS on the lockword,
 * which inflates to a fat monitor without busy-waiting and deflates again when the contention is over.
 * Reentrant; {@link #await()}/{@link #signal()} have {@code Object.wait/notify} semantics.
 *
 * <p>The lockword is 0 (free), the holder's thread id (held flat) or {@link #INFLATED}. The flat release
 * stores 0 and then reads the FLC bit; that store-&gt;load order is the one fence of the uncontended path
 * (see {@link #releaseFlatAndTestFlc}). The class is not final only so that the stress tests can build
 * the negative control that drops that fence; its hooks are package-private.
 */
public class TasukiLock extends BimodalLock {

    /** The shape bit: inflated; whoever holds the fat monitor holds the lock. */
    static final long INFLATED = Long.MIN_VALUE;

    static final VarHandle LOCKWORD;
    static {
        try {
            LOCKWORD = MethodHandles.lookup().findVarHandle(TasukiLock.class, "lockword", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through LOCKWORD
    private volatile long lockword;

    @Override
    final boolean flatTryAcquire(long me) {
        // Volatile CAS: reading the 0 stored by the previous flat release (or by a deflation) gives the
        // previous holder's critical section happens-before ours.
        return LOCKWORD.compareAndSet(this, 0L, me);
    }

    @Override
    final boolean flatHeldBy(long me) {
        // Only the holder sees its own id here. Acquire (free on x86) so that a holder installed by a
        // reservation cancellation also sees the flatRecursions written before the lockword.
        return (long) LOCKWORD.getAcquire(this) == me;
    }

    @Override
    final boolean isInflated() {
        return (long) LOCKWORD.getVolatile(this) == INFLATED;
    }

    /**
     * Lines 47-48 of Fig. 4.7. The volatile store of 0 followed by the volatile FLC read are in the JMM's
     * total synchronization order, so the store-&gt;load reordering of x86 TSO (the SB litmus) cannot happen:
     * if a contender's CAS failed (it saw our id), its earlier FLC store is visible to our read, and it is
     * woken (Property 4.3). On x86 HotSpot the volatile store costs a locked instruction, about one CAS.
     * With the {@link AsymmetricFence} the contender pays instead (a membarrier between its FLC store and its
     * CAS): the release store (the next CAS that reads 0 happens-after our critical section) and the FLC load
     * are plain moves on x86, kept in program order by the JIT.
     */
    @Override
    boolean releaseFlatAndTestFlc(long me) {
        if (AsymmetricFence.ENABLED) {
            LOCKWORD.setRelease(this, 0L);
            return (int) FLC.getAcquire(this) != 0;
        }
        LOCKWORD.setVolatile(this, 0L);
        return flcSet();
    }

    @Override
    final void markInflated(long me) {
        LOCKWORD.setVolatile(this, INFLATED);
    }

    @Override
    final void markDeflated() {
        // Volatile store of 0: the next flat CAS that reads it happens-after this critical section.
        LOCKWORD.setVolatile(this, 0L);
    }

    /**
     * Hands a lock over in flat mode to {@code holder} with {@code recursions} extra holds, for the
     * reservation lock's cancellation; the caller guarantees the lock is free and that nobody acquires it
     * until this returns. {@code flatRecursions} is written before the volatile lockword store, so the
     * holder, whose next operation reads the lockword, sees it.
     */
    final void installFlatHolder(long holder, int recursions) {
        flatRecursions = recursions;
        LOCKWORD.setVolatile(this, holder);
    }

    /** Whether the lock is free in flat mode right now (a racy snapshot, for tests). */
    final boolean isFreeFlat() {
        return (long) LOCKWORD.getVolatile(this) == 0L;
    }
}
