package dev.lockscope.locks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

/**
 * Asymmetric (owner-biased) spin lock (Onodera, Kawachiya and Koseki, ECOOP 2004; Kawachiya, "Java Locks:
 * Analysis and Acceleration", ch. 6, Fig. 6.5), in its three-field form. The first thread to acquire the
 * lock becomes its owner for good; the owner acquires and releases with plain-cost stores and loads and no
 * read-modify-write, other threads pay one CAS. Reentrant. A waiting thread spins, then yields, then parks
 * briefly: this is a spin lock for short critical sections; {@link AsymmetricTasukiLock} blocks instead.
 *
 * <p>Fields: {@code owner} is written once, by CAS. {@code ownerStatus} is written only by the owner.
 * {@code other} is set by a non-owner's CAS and cleared only by the thread that set it (or, with value
 * {@link #HELD_BY_MONITOR}, by the asymmetric tasuki lock's monitor holder). Mutual exclusion between the
 * owner and the one non-owner that won the CAS is Dekker's: each stores its flag and then loads the other's,
 * which needs store-&gt;load order on both sides (see {@link #ownerTryAcquire}). The three-field form can
 * livelock (both sides keep backing off); the randomized back-off of {@link #lock()} ends it.
 *
 * <p>Store-&gt;load order on a stock JDK costs a volatile store (a locked instruction on x86, about one CAS),
 * so on x86 the owner saves the CAS's read-modify-write but not its fence; on AArch64 a volatile store and
 * load are {@code stlr}/{@code ldar}, ordered without a {@code dmb}. The thesis's cheaper forms (byte stores
 * into one word) are outside the Java memory model; the asymmetric {@code membarrier} is used where the JVM
 * allows it ({@link AsymmetricFence}: JDK 22+ with native access enabled, Linux). Not final only for the
 * stress tests' negative control; its hooks are package-private.
 */
public class AsymmetricLock implements Lock {

    /** Value of {@code other} while the asymmetric tasuki lock is inflated: held on behalf of its monitor. */
    static final long HELD_BY_MONITOR = -1L;

    static final VarHandle OWNER;
    static final VarHandle OTHER;
    static final VarHandle OWNER_STATUS;
    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            OWNER = lookup.findVarHandle(AsymmetricLock.class, "owner", long.class);
            OTHER = lookup.findVarHandle(AsymmetricLock.class, "other", long.class);
            OWNER_STATUS = lookup.findVarHandle(AsymmetricLock.class, "ownerStatus", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") private volatile long owner;
    @SuppressWarnings("unused") private volatile long other;
    @SuppressWarnings("unused") private volatile int ownerStatus;
    /** Extra (recursive) holds of the current holder; read and written only by the holder. */
    private int recursions;

    /** One attempt (Fig. 6.5 {@code try_acquire}); never blocks. */
    final boolean tryAcquireOnce(long me) {
        long ownerNow = (long) OWNER.getAcquire(this);
        if (ownerNow == 0L) {
            // First-acquirer reservation: owner is written once.
            if (OWNER.compareAndSet(this, 0L, me)) {
                ownerNow = me;
            } else {
                ownerNow = (long) OWNER.getAcquire(this);
            }
        }
        if (ownerNow == me) {
            // An owner already holding it must not "acquire" again (its status is already 1): the caller
            // counts a recursion instead. ownerStatus is written only by the owner, so opaque is exact.
            return (int) OWNER_STATUS.getOpaque(this) == 0 && ownerTryAcquire();
        }
        return otherTryAcquire(me);
    }

    /**
     * The owner's side of Dekker (lines 23-24): store ownerStatus = 1, then load other. Both volatile, so in
     * the JMM's total synchronization order the load cannot be satisfied before the store is visible (the
     * SB outcome "both enter" is forbidden). Reading other == 0 as a volatile read of the value a non-owner
     * released with setRelease gives that holder's critical section happens-before ours. With the
     * {@link AsymmetricFence} the non-owner's membarrier provides the store-&gt;load order instead: an opaque
     * store and an acquire load (plain moves on x86, kept in program order by the JIT), no fence at all.
     */
    boolean ownerTryAcquire() {
        if (AsymmetricFence.ENABLED) {
            OWNER_STATUS.setOpaque(this, 1);
            if ((long) OTHER.getAcquire(this) == 0L) {
                return true;
            }
            OWNER_STATUS.setRelease(this, 0);
            return false;
        }
        OWNER_STATUS.setVolatile(this, 1);
        if ((long) OTHER.getVolatile(this) == 0L) {
            return true;
        }
        OWNER_STATUS.setRelease(this, 0);
        return false;
    }

    /**
     * The non-owner's side: the CAS on other serializes non-owners (preliminary round) and, being a full
     * fence, orders our claim before the load of ownerStatus (final round). Reading ownerStatus == 0 that the
     * owner released with setRelease gives the owner's critical section happens-before ours. With the
     * {@link AsymmetricFence}, the membarrier after the CAS is the fence the owner no longer executes.
     */
    final boolean otherTryAcquire(long me) {
        if (!OTHER.compareAndSet(this, 0L, me)) {
            return false;
        }
        fenceAgainstOwner();
        if ((int) OWNER_STATUS.getVolatile(this) == 0) {
            return true;
        }
        OTHER.setRelease(this, 0L);
        return false;
    }

    /** The heavy side of the {@link AsymmetricFence} when the locks use it; overridden only by negative controls. */
    void fenceAgainstOwner() {
        if (AsymmetricFence.ENABLED) {
            AsymmetricFence.heavy();
        }
    }

    /** Whether {@code me} holds the lock (asked by {@code me} about itself). */
    final boolean heldBy(long me) {
        if ((long) OWNER.getAcquire(this) == me) {
            return (int) OWNER_STATUS.getOpaque(this) == 1; // written only by me
        }
        return (long) OTHER.getAcquire(this) == me; // set and cleared only by me
    }

    /**
     * Releases the hold of {@code me}. A release store: the next holder's volatile read of the cleared flag
     * happens-after our critical section. No store-&gt;load fence: a spin lock reads nothing after it.
     */
    final void releaseHeld(long me) {
        if ((long) OWNER.getAcquire(this) == me) {
            OWNER_STATUS.setRelease(this, 0);
        } else {
            OTHER.setRelease(this, 0L);
        }
    }

    /**
     * For the asymmetric tasuki lock's inflate: {@code me} holds the lock; afterwards it is held on behalf
     * of the monitor ({@code other == HELD_BY_MONITOR}, ownerStatus 0), so every try fails until
     * {@link #releaseHeldByMonitor()}. The owner must wait out non-owners that claimed {@code other} for an
     * instant and are about to back off (they saw ownerStatus == 1).
     */
    final void holdForMonitor(long me) {
        if ((long) OWNER.getAcquire(this) == me) {
            int spins = 0;
            while (!OTHER.compareAndSet(this, 0L, HELD_BY_MONITOR)) {
                if (++spins < 64) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
            OWNER_STATUS.setVolatile(this, 0);
        } else {
            OTHER.setVolatile(this, HELD_BY_MONITOR);
        }
    }

    final boolean isHeldByMonitor() {
        return (long) OTHER.getVolatile(this) == HELD_BY_MONITOR;
    }

    /** Deflation: the monitor holder frees the lock (volatile: its critical section happens-before). */
    final void releaseHeldByMonitor() {
        OTHER.setVolatile(this, 0L);
    }

    /** The thread id of the owner, 0 before the first acquisition. */
    final long ownerId() {
        return (long) OWNER.getAcquire(this);
    }

    // ---- java.util.concurrent.locks.Lock --------------------------------------------------------------------

    @Override
    public void lock() {
        long me = BimodalLock.currentThreadId();
        if (tryAcquireOnce(me)) {
            return;
        }
        if (heldBy(me)) {
            recursions++;
            return;
        }
        for (int attempt = 1; !tryAcquireOnce(me); attempt++) {
            backOff(attempt);
        }
    }

    /**
     * Spin, then yield, then park for a random time up to a growing bound: the randomness breaks the
     * three-field form's livelock, where owner and non-owner keep retracting in step.
     */
    private static void backOff(int attempt) {
        if (attempt < 32) {
            Thread.onSpinWait();
        } else if (attempt < 64) {
            Thread.yield();
        } else {
            int shift = Math.min(attempt - 64, 10);
            LockSupport.parkNanos(1_000L + java.util.concurrent.ThreadLocalRandom.current().nextLong(1_000L << shift));
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        long me = BimodalLock.currentThreadId();
        if (heldBy(me)) {
            recursions++;
            return;
        }
        for (int attempt = 1; !tryAcquireOnce(me); attempt++) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            backOff(attempt);
        }
    }

    @Override
    public boolean tryLock() {
        long me = BimodalLock.currentThreadId();
        if (tryAcquireOnce(me)) {
            return true;
        }
        if (heldBy(me)) {
            recursions++;
            return true;
        }
        return false;
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(time);
        long me = BimodalLock.currentThreadId();
        if (heldBy(me)) {
            recursions++;
            return true;
        }
        for (int attempt = 1; !tryAcquireOnce(me); attempt++) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (System.nanoTime() - deadline >= 0L) {
                return false;
            }
            backOff(attempt);
        }
        return true;
    }

    @Override
    public void unlock() {
        long me = BimodalLock.currentThreadId();
        if (!heldBy(me)) {
            throw new IllegalMonitorStateException("lock not held by " + Thread.currentThread().getName());
        }
        if (recursions > 0) {
            recursions--;
            return;
        }
        releaseHeld(me);
    }

    /** Not supported: a spin lock has no wait set; use {@link AsymmetricTasukiLock} for await/signal. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("AsymmetricLock is a spin lock: use AsymmetricTasukiLock for await/signal");
    }

    /** Whether the current thread holds this lock. */
    public boolean isHeldByCurrentThread() {
        return heldBy(BimodalLock.currentThreadId());
    }
}
