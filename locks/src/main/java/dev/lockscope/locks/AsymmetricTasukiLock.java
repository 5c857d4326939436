package dev.lockscope.locks;

import java.lang.invoke.VarHandle;

/**
 * Asymmetric tasuki lock (Kawachiya, "Java Locks: Analysis and Acceleration", §6.5): the tasuki algorithm
 * with its CAS spin lock replaced by the {@link AsymmetricLock}. The first thread to lock it becomes its
 * owner and, as long as the lock is flat, acquires and releases it without a read-modify-write; other
 * threads pay one CAS, about the cost of the tasuki lock. The reservation is never cancelled, so the owner
 * stays fast after other threads appear. Contention inflates the lock to a fat monitor without busy-waiting
 * and it deflates again afterwards, as in {@link TasukiLock}; {@link #await()}/{@link #signal()} have
 * {@code Object.wait/notify} semantics.
 *
 * <p>Inflated mode is {@code other == HELD_BY_MONITOR}: the spin lock is held on behalf of the monitor, so
 * every flat attempt fails, the owner's included (the thesis folds the shape bit into the spin lock's masks
 * for the same effect). A failed flat attempt can also be caused by a competitor that backs off at once (the
 * three-field livelock); that competitor then takes the slow path itself and re-tries inside the monitor,
 * so a waiter in the inflation loop is still woken, either by an inflater or by a flat holder's FLC test.
 */
public class AsymmetricTasukiLock extends BimodalLock {

    final AsymmetricLock flat;

    public AsymmetricTasukiLock() {
        this(new AsymmetricLock());
    }

    /** For the stress tests' negative controls, which pass a spin lock with one fence removed. */
    AsymmetricTasukiLock(AsymmetricLock flat) {
        this.flat = flat;
    }

    @Override
    final boolean flatTryAcquire(long me) {
        return flat.tryAcquireOnce(me);
    }

    @Override
    final boolean flatHeldBy(long me) {
        return flat.heldBy(me);
    }

    @Override
    final boolean isInflated() {
        return flat.isHeldByMonitor();
    }

    /**
     * Lines 47-48 of Fig. 4.7 over the asymmetric spin lock: release (a release store), then a full fence so
     * that the FLC load cannot be satisfied before the release is visible (the store-&gt;load order Property
     * 4.3 needs, which x86 TSO does not give by itself). With the {@link AsymmetricFence} the contender's
     * membarrier provides that order instead, and the release is a plain store and load on x86.
     */
    @Override
    boolean releaseFlatAndTestFlc(long me) {
        flat.releaseHeld(me);
        if (AsymmetricFence.ENABLED) {
            return (int) FLC.getAcquire(this) != 0;
        }
        VarHandle.fullFence();
        return flcSet();
    }

    @Override
    final void markInflated(long me) {
        flat.holdForMonitor(me);
    }

    @Override
    final void markDeflated() {
        flat.releaseHeldByMonitor();
    }

    /** The thread id of the owner the lock is biased to, 0 before the first acquisition. */
    public long ownerThreadId() {
        return flat.ownerId();
    }
}
