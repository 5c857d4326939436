package dev.lockscope.locks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The tasuki lock algorithm of Kawachiya, Koseki and Onodera ("Lock reservation"-era IBM JDK; Kawachiya,
 * "Java Locks: Analysis and Acceleration", ch. 4, Fig. 4.7), written over an abstract flat (spin) lock so
 * that the same inflation/deflation code drives the CAS lockword of {@link TasukiLock} and the asymmetric
 * spin lock of {@link AsymmetricTasukiLock} (ch. 6.5 refactors tasuki the same way).
 *
 * <p>Concurrency design. Two modes. <b>Flat</b>: the flat lock alone decides who holds the lock; nobody
 * touches the fat monitor on the uncontended path. <b>Inflated</b>: the flat lock is held on behalf of the
 * fat monitor and whoever holds {@link FatMonitor#lock} holds this lock. A thread that fails the flat
 * acquire enters the monitor and loops: while the lock is flat, set the FLC bit and retry the flat lock;
 * on success it inflates (clears FLC, wakes every inflation waiter, marks inflated), otherwise it waits
 * on the monitor's condition. A flat release stores "free" and then tests FLC (the tasuki: that store and
 * the contender's FLC store must be ordered before the opposite loads, see {@link #releaseFlatAndTestFlc}).
 * An outermost release in inflated mode deflates when nobody waits on the condition and no thread is
 * queued on the monitor (the thesis's "nowait group and fat section ended" policy, §4.6).
 *
 * <p>The fat monitor has dual roles (§4.5.4): it is the inflation monitor and it carries the Java-level
 * wait set ({@link #await()}, {@link #signal()}). One condition serves both; they never wake each other,
 * because inflation waiters exist only in flat mode (Property 4.9) and Java-level waiters only in inflated
 * mode (4.6), and each kind of notify happens only in its own mode (4.7, 4.8).
 *
 * <p>Who writes what: {@code flc} is set by contenders and cleared by the inflater, always with the monitor
 * held (Property 4.2), and read racily by a flat releaser. {@code flatRecursions} is read and written only
 * by the thread holding the lock in flat mode (or handed over with the lockword, see
 * {@link ReservationLock}). The monitor, once created, stays associated with the lock (the thesis's monitor
 * table never forgets an object either).
 */
abstract class BimodalLock implements Lock {

    /** The monitor of the inflated mode and of the Java-level wait set (the thesis's {@code monitor_t}). */
    static final class FatMonitor {
        final ReentrantLock lock = new ReentrantLock();
        final Condition condition = lock.newCondition();
        /** Java-level waits ever started; non-zero puts the lock in the thesis's "wait group" (never deflated). */
        int javaWaits;
        /** Inflations and deflations so far (diagnostics and tests); written only with {@link #lock} held. */
        volatile long inflations;
        volatile long deflations;
    }

    static final VarHandle FLC;
    private static final VarHandle MONITOR;
    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            FLC = lookup.findVarHandle(BimodalLock.class, "flc", int.class);
            MONITOR = lookup.findVarHandle(BimodalLock.class, "monitor", FatMonitor.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The FLC ("flat lock contention") bit, a separate word from the flat lock as the algorithm requires. */
    @SuppressWarnings("unused") // through FLC
    private volatile int flc;
    @SuppressWarnings("unused") // through MONITOR
    private volatile FatMonitor monitor;
    /** Extra (recursive) flat acquisitions by the flat holder; 0 when held once. */
    int flatRecursions;

    // ---- the flat lock, supplied by the subclass ----------------------------------------------------------

    /** One attempt at the flat lock; fails whenever the lock is inflated. Must be a full (volatile) access. */
    abstract boolean flatTryAcquire(long me);

    /** Whether {@code me} holds the lock in flat mode (only asked by {@code me} about itself). */
    abstract boolean flatHeldBy(long me);

    /** Whether the lock is in inflated mode. A volatile read. */
    abstract boolean isInflated();

    /** Releases the flat lock held by {@code me}, then reads the FLC bit (lines 47-48 of Fig. 4.7). */
    abstract boolean releaseFlatAndTestFlc(long me);

    /** Turns the flat lock held by {@code me} into inflated mode (the monitor is held). */
    abstract void markInflated(long me);

    /** Turns inflated mode back into a free flat lock (the monitor is held, outermost). */
    abstract void markDeflated();

    // ---- shared steps with an ordering contract -----------------------------------------------------------

    /**
     * Lines 20-21 of Fig. 4.7: set FLC, then try the flat lock. The volatile FLC store is ordered before the
     * flat lock's volatile access (t0 < t1 of Fig. 4.9), so a releaser whose store of "free" comes after our
     * failed attempt must see FLC set.
     */
    final boolean markContendedAndTryFlat(long me) {
        FLC.setVolatile(this, 1);
        fenceAgainstFlatReleaser();
        return flatTryAcquire(me);
    }

    /**
     * The heavy side of the {@link AsymmetricFence}, when the locks use it: the flat releaser then has no
     * fence between its releasing store and its FLC load, and this membarrier orders them against our FLC
     * store and flat attempt instead (Property 4.3). Overridden only by the negative controls.
     */
    void fenceAgainstFlatReleaser() {
        if (AsymmetricFence.ENABLED) {
            AsymmetricFence.heavy();
        }
    }

    /** The racy FLC test of a flat releaser; volatile so it is ordered after the releasing store. */
    final boolean flcSet() {
        return (int) FLC.getVolatile(this) != 0;
    }

    static long currentThreadId() {
        // Thread ids are unique for the life of the JVM and never 0 (HotSpot never reuses them).
        return Thread.currentThread().getId();
    }

    // ---- the algorithm ------------------------------------------------------------------------------------

    @Override
    public void lock() {
        long me = currentThreadId();
        if (!acquiredFlatOrRecursively(me)) {
            acquireSlow(me, false, 0L);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long me = currentThreadId();
        if (!acquiredFlatOrRecursively(me) && !acquireSlow(me, true, 0L)) {
            throw new InterruptedException();
        }
    }

    /** Line 12 of Fig. 4.7 (the flat CAS), or one more hold by a thread that already holds the lock flat. */
    private boolean acquiredFlatOrRecursively(long me) {
        if (flatTryAcquire(me)) {
            return true;
        }
        if (flatHeldBy(me)) {
            enterRecursively();
            return true;
        }
        return false;
    }

    @Override
    public boolean tryLock() {
        long me = currentThreadId();
        if (acquiredFlatOrRecursively(me)) {
            return true;
        }
        FatMonitor mon = obtainMonitor();
        if (!mon.lock.tryLock()) {
            return false;
        }
        if (isInflated()) {
            return true;
        }
        mon.lock.unlock();
        return flatTryAcquire(me);
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryLock()) {
            return true;
        }
        long nanos = Math.max(1L, unit.toNanos(time));
        return acquireSlow(currentThreadId(), true, System.nanoTime() + nanos);
    }

    private void enterRecursively() {
        if (flatRecursions == Integer.MAX_VALUE - 1) {
            throw new Error("Maximum lock count exceeded");
        }
        flatRecursions++; // holder-only field
    }

    /**
     * Lines 16-26 of Fig. 4.7. Returns false only when interrupted (interruptible) or past the deadline
     * (deadline != 0); then the monitor is left and no hold is taken.
     */
    private boolean acquireSlow(long me, boolean interruptible, long deadline) {
        FatMonitor mon = obtainMonitor();
        if (interruptible) {
            try {
                if (deadline == 0L) {
                    mon.lock.lockInterruptibly();
                } else if (!mon.lock.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                    return false;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        } else {
            mon.lock.lock();
        }
        // Inflation loop: the mode is re-tested after every (re-)entry, which is what makes deflation safe
        // (Property 4.5) even if it happened while we were queued.
        while (!isInflated()) {
            if (markContendedAndTryFlat(me)) {
                inflate(mon);
                break;
            }
            try {
                if (deadline != 0L) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0L) {
                        giveUpWaiting(mon);
                        return false;
                    }
                    mon.condition.awaitNanos(left); // the loop re-tests the mode and the deadline
                } else if (interruptible) {
                    mon.condition.await();
                } else {
                    mon.condition.awaitUninterruptibly();
                }
            } catch (InterruptedException e) {
                giveUpWaiting(mon);
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /**
     * A waiter that leaves the inflation loop without the lock may have consumed the releaser's notify
     * (Condition does not say whether a timed-out await was also signalled), so it passes one on: an extra
     * wake-up only costs the woken thread another turn of the loop.
     */
    private void giveUpWaiting(FatMonitor mon) {
        if (!isInflated() && flcSet()) {
            mon.condition.signal();
        }
        mon.lock.unlock();
    }

    /** Lines 37-41: with the flat lock and the monitor held. */
    private void inflate(FatMonitor mon) {
        // Clearing FLC needs no fence of its own: it is read by flat releasers, and there is no flat
        // releaser until this thread deflates (the flat lock is held on behalf of the monitor).
        FLC.setVolatile(this, 0);
        mon.condition.signalAll(); // every inflation waiter re-tests the mode once it gets the monitor
        mon.inflations++;
        markInflated(currentThreadId());
    }

    @Override
    public void unlock() {
        unlockAs(currentThreadId());
    }

    /** {@link #unlock()} by thread id {@code me} (the stress tests release a lock held by a synthetic id). */
    final void unlockAs(long me) {
        if (flatHeldBy(me)) {
            if (flatRecursions > 0) {
                flatRecursions--;
                return;
            }
            if (releaseFlatAndTestFlc(me)) {
                // Lines 49-52: a contender may be waiting in the inflation loop; notify one under the monitor.
                FatMonitor mon = obtainMonitor();
                mon.lock.lock();
                try {
                    if (flcSet()) {
                        mon.condition.signal();
                    }
                } finally {
                    mon.lock.unlock();
                }
            }
            return;
        }
        FatMonitor mon = (FatMonitor) MONITOR.getAcquire(this);
        if (mon == null || !isInflated() || !mon.lock.isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("lock not held by " + Thread.currentThread().getName());
        }
        // Lines 59-60, deflating only on the outermost exit.
        if (mon.lock.getHoldCount() == 1 && mon.javaWaits == 0 && !mon.lock.hasWaiters(mon.condition)
                && !mon.lock.hasQueuedThreads()) {
            mon.deflations++;
            markDeflated(); // volatile: the critical section happens-before a later flat acquirer
        }
        mon.lock.unlock();
    }

    /** Lines 30-34: the monitor associated with this lock, created on first use. */
    final FatMonitor obtainMonitor() {
        FatMonitor mon = (FatMonitor) MONITOR.getAcquire(this);
        if (mon != null) {
            return mon;
        }
        FatMonitor fresh = new FatMonitor();
        // compareAndExchange publishes the fully constructed monitor (release) to every later getAcquire.
        FatMonitor witness = (FatMonitor) MONITOR.compareAndExchange(this, (FatMonitor) null, fresh);
        return witness == null ? fresh : witness;
    }

    /** The inflated monitor held by the caller, inflating first when the caller holds the lock flat. */
    private FatMonitor inflatedMonitorHeldByMe(String operation) {
        long me = currentThreadId();
        if (flatHeldBy(me)) {
            // Lines 66-71: force inflation; the flat recursion count becomes the monitor's hold count so
            // that await() releases and restores every level.
            FatMonitor mon = obtainMonitor();
            mon.lock.lock();
            for (int i = 0; i < flatRecursions; i++) {
                mon.lock.lock();
            }
            flatRecursions = 0;
            inflate(mon);
            return mon;
        }
        FatMonitor mon = (FatMonitor) MONITOR.getAcquire(this);
        if (mon == null || !isInflated() || !mon.lock.isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException(operation + " without holding the lock");
        }
        return mon;
    }

    /** {@code Object.wait()}: releases every hold, waits for {@link #signal()}, re-acquires. */
    public void await() throws InterruptedException {
        FatMonitor mon = inflatedMonitorHeldByMe("await");
        mon.javaWaits++;
        mon.condition.await();
    }

    /** {@code Object.wait(timeout)}; returns the nanoseconds left, &lt;= 0 when it timed out. */
    public long awaitNanos(long nanos) throws InterruptedException {
        FatMonitor mon = inflatedMonitorHeldByMe("await");
        mon.javaWaits++;
        return mon.condition.awaitNanos(nanos);
    }

    /** {@code Object.notify()}: in flat mode nobody can be waiting (Property 4.6), so it does nothing. */
    public void signal() {
        notifyJavaWaiters(false);
    }

    /** {@code Object.notifyAll()}. */
    public void signalAll() {
        notifyJavaWaiters(true);
    }

    private void notifyJavaWaiters(boolean all) {
        long me = currentThreadId();
        if (flatHeldBy(me)) {
            return; // lines 80-82
        }
        FatMonitor mon = (FatMonitor) MONITOR.getAcquire(this);
        if (mon == null || !isInflated() || !mon.lock.isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("signal without holding the lock");
        }
        if (all) {
            mon.condition.signalAll();
        } else {
            mon.condition.signal();
        }
    }

    /**
     * Not supported: the lock has one wait set, like a Java monitor (the dual-role design relies on it). Use
     * {@link #await()}, {@link #signal()} and {@link #signalAll()} on the lock itself.
     */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException(getClass().getSimpleName()
                + " has one wait set, like a monitor: use its await()/signal()/signalAll()");
    }

    /** Whether the current thread holds this lock. */
    public boolean isHeldByCurrentThread() {
        if (flatHeldBy(currentThreadId())) {
            return true;
        }
        FatMonitor mon = (FatMonitor) MONITOR.getAcquire(this);
        return mon != null && isInflated() && mon.lock.isHeldByCurrentThread();
    }

    /** Whether the lock is now in inflated (fat) mode. */
    public boolean isFat() {
        return isInflated();
    }

    /** Inflations so far (0 until the first contention or wait). */
    public long inflationCount() {
        FatMonitor mon = (FatMonitor) MONITOR.getAcquire(this);
        return mon == null ? 0 : mon.inflations;
    }

    /** Deflations so far. */
    public long deflationCount() {
        FatMonitor mon = (FatMonitor) MONITOR.getAcquire(this);
        return mon == null ? 0 : mon.deflations;
    }
}
