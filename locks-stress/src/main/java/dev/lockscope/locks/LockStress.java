package dev.lockscope.locks;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.I_Result;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * jcstress tests of the lock library (Kawachiya, "Java Locks: Analysis and Acceleration": Properties 4.3-4.9
 * of the tasuki lock, §5.4 reservation cancellation, §6.4 the asymmetric lock's Dekker race). Each nested
 * class is one test. {@link NegativeControls} holds the same litmus tests over locks with one fence removed.
 */
public final class LockStress {

    private LockStress() {
    }

    /** Synthetic thread ids for the litmus tests, which call the locks' internal steps directly. */
    static final long HOLDER = 1L << 40;
    static final long CONTENDER = (1L << 40) + 1;

    // ---- Property 4.3: the tasuki (lines 47/48 against 20/21 of Fig. 4.7) -------------------------------

    static TasukiLock heldFlatBySyntheticHolder(TasukiLock lock) {
        lock.installFlatHolder(HOLDER, 0);
        return lock;
    }

    static void releaseRace(BimodalLock lock, ZZ_Result r) {
        r.r1 = lock.releaseFlatAndTestFlc(HOLDER);
    }

    static void contendRace(BimodalLock lock, ZZ_Result r) {
        r.r2 = lock.markContendedAndTryFlat(CONTENDER);
    }

    @JCStressTest
    @Description("Property 4.3: a contender whose flat attempt fails is seen by the releaser's FLC test (SB litmus)")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "lost wake-up: contender failed and will wait, releaser saw no FLC")
    @Outcome(id = "true, false", expect = ACCEPTABLE, desc = "contender failed, releaser saw FLC and notifies")
    @Outcome(id = "false, true", expect = ACCEPTABLE, desc = "contender got the released lock")
    @Outcome(id = "true, true", expect = ACCEPTABLE, desc = "contender got the lock and the releaser saw FLC")
    @State
    public static class TasukiReleaseSeesContender {
        final TasukiLock lock = heldFlatBySyntheticHolder(new TasukiLock());

        @Actor
        public void releaser(ZZ_Result r) {
            releaseRace(lock, r);
        }

        @Actor
        public void contender(ZZ_Result r) {
            contendRace(lock, r);
        }
    }

    static AsymmetricTasukiLock heldFlatByNonOwner(AsymmetricTasukiLock lock) {
        AsymmetricLock.OWNER.setVolatile(lock.flat, CONTENDER + 1); // some third thread owns the bias
        AsymmetricLock.OTHER.setVolatile(lock.flat, HOLDER);
        return lock;
    }

    @JCStressTest
    @Description("Property 4.3 over the asymmetric spin lock: releaser's store before its FLC load")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "lost wake-up")
    @Outcome(id = {"true, false", "false, true", "true, true"}, expect = ACCEPTABLE, desc = "woken or acquired")
    @State
    public static class AsymmetricTasukiReleaseSeesContender {
        final AsymmetricTasukiLock lock = heldFlatByNonOwner(new AsymmetricTasukiLock());

        @Actor
        public void releaser(ZZ_Result r) {
            releaseRace(lock, r);
        }

        @Actor
        public void contender(ZZ_Result r) {
            contendRace(lock, r);
        }
    }

    /** The real lock() and unlock(): the contender must terminate once the holder releases (4.3 + 4.4). */
    @JCStressTest(Mode.Termination)
    @Description("Property 4.4: a contender parked in the inflation loop is always woken")
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "woken")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "lost wake-up: parked forever")
    @State
    public static class TasukiContenderIsWoken {
        final TasukiLock lock = heldFlatBySyntheticHolder(new TasukiLock());

        @Actor
        public void contender() {
            lock.lock();
            lock.unlock();
        }

        @Signal
        public void holderReleases() {
            lock.unlockAs(HOLDER);
        }
    }

    // ---- mutual exclusion in every mode and transition ----------------------------------------------------

    /** A plain counter incremented under a lock: a lost update means two threads were inside at once. */
    static final class GuardedCounter {
        final Lock lock;
        int value; // guarded by lock

        GuardedCounter(Lock lock) {
            this.lock = lock;
        }

        void incrementThrice() {
            increment();
            increment();
            increment();
        }

        void increment() {
            lock.lock();
            try {
                value++;
            } finally {
                lock.unlock();
            }
        }
    }

    static TasukiLock inflatedForGood(TasukiLock lock) {
        lock.lock();
        try {
            lock.awaitNanos(1); // a Java-level wait: inflated, and the wait group is never deflated
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
        return lock;
    }

    /** Two threads, three entries each, on a flat tasuki lock: flat, inflation without busy-wait, deflation, re-inflation. */
    @JCStressTest
    @Outcome(id = "6", expect = ACCEPTABLE, desc = "every increment under the lock")
    @Outcome(expect = FORBIDDEN, desc = "lost update: two threads inside at once")
    @State
    public static class TasukiExclusion {
        final GuardedCounter counter = new GuardedCounter(new TasukiLock());

        @Actor
        public void a() {
            counter.incrementThrice();
        }

        @Actor
        public void b() {
            counter.incrementThrice();
        }

        @Arbiter
        public void count(I_Result r) {
            r.r1 = counter.value;
        }
    }

    /** Starts inflated and in the wait group (never deflated): the fat-monitor path only. */
    @JCStressTest
    @Outcome(id = "6", expect = ACCEPTABLE, desc = "every increment under the lock")
    @Outcome(expect = FORBIDDEN, desc = "lost update: two threads inside at once")
    @State
    public static class TasukiInflatedExclusion {
        final GuardedCounter counter = new GuardedCounter(inflatedForGood(new TasukiLock()));

        @Actor
        public void a() {
            counter.incrementThrice();
        }

        @Actor
        public void b() {
            counter.incrementThrice();
        }

        @Arbiter
        public void count(I_Result r) {
            r.r1 = counter.value;
        }
    }

    /** The first actor to lock becomes the owner: owner/non-owner Dekker races on the real lock(). */
    @JCStressTest
    @Outcome(id = "6", expect = ACCEPTABLE, desc = "every increment under the lock")
    @Outcome(expect = FORBIDDEN, desc = "lost update: two threads inside at once")
    @State
    public static class AsymmetricExclusion {
        final GuardedCounter counter = new GuardedCounter(new AsymmetricLock());

        @Actor
        public void a() {
            counter.incrementThrice();
        }

        @Actor
        public void b() {
            counter.incrementThrice();
        }

        @Arbiter
        public void count(I_Result r) {
            r.r1 = counter.value;
        }
    }

    /** Asymmetric tasuki: owner fast path, non-owner CAS, inflation and deflation over the spin lock. */
    @JCStressTest
    @Outcome(id = "6", expect = ACCEPTABLE, desc = "every increment under the lock")
    @Outcome(expect = FORBIDDEN, desc = "lost update: two threads inside at once")
    @State
    public static class AsymmetricTasukiExclusion {
        final GuardedCounter counter = new GuardedCounter(new AsymmetricTasukiLock());

        @Actor
        public void a() {
            counter.incrementThrice();
        }

        @Actor
        public void b() {
            counter.incrementThrice();
        }

        @Arbiter
        public void count(I_Result r) {
            r.r1 = counter.value;
        }
    }

    /** Anonymous-to-specific CAS race, then cancellation while the owner may be inside its unsafe region. */
    @JCStressTest
    @Outcome(id = "6", expect = ACCEPTABLE, desc = "every increment under the lock")
    @Outcome(expect = FORBIDDEN, desc = "lost update: two threads inside at once")
    @State
    public static class ReservationExclusion {
        final GuardedCounter counter = new GuardedCounter(new ReservationLock());

        @Actor
        public void a() {
            counter.incrementThrice();
        }

        @Actor
        public void b() {
            counter.incrementThrice();
        }

        @Arbiter
        public void count(I_Result r) {
            r.r1 = counter.value;
        }
    }

    // ---- §6.4: the asymmetric lock's owner/non-owner Dekker race (lines 23/24 against the CAS) -----------

    static <L extends AsymmetricLock> L ownedBySyntheticOwner(L lock) {
        AsymmetricLock.OWNER.setVolatile(lock, HOLDER);
        return lock;
    }

    @JCStressTest
    @Description("Dekker: the owner (store status, load other) and a non-owner (CAS other, load status)")
    @Outcome(id = "true, true", expect = FORBIDDEN, desc = "both acquired")
    @Outcome(id = {"true, false", "false, true"}, expect = ACCEPTABLE, desc = "one acquired")
    @Outcome(id = "false, false", expect = ACCEPTABLE_INTERESTING, desc = "both backed off (the three-field livelock step)")
    @State
    public static class AsymmetricOwnerAgainstOther {
        final AsymmetricLock lock = ownedBySyntheticOwner(new AsymmetricLock());

        @Actor
        public void owner(ZZ_Result r) {
            r.r1 = lock.ownerTryAcquire();
        }

        @Actor
        public void other(ZZ_Result r) {
            r.r2 = lock.otherTryAcquire(CONTENDER);
        }
    }

    // ---- Properties 4.6-4.9: dual roles of the fat monitor -----------------------------------------------

    /**
     * A Java-level waiter and a notifier on one tasuki lock. The notifier's lock() contends with the waiter's
     * flat hold, so it often sits in the inflation loop when the waiter's await() forces inflation: the
     * inflation wake-up must reach it, and its later signal must reach the Java waiter, not be lost. A lost
     * or misdirected notify shows as the waiter sleeping out its timeout although the flag is set.
     */
    @JCStressTest
    @Description("Properties 4.6-4.9: Java-level notify and inflation wake-ups never reach the wrong waiter")
    @Outcome(id = "0", expect = ACCEPTABLE, desc = "the notify reached the Java waiter (or it never had to wait)")
    @Outcome(id = "1", expect = FORBIDDEN, desc = "the Java waiter timed out although notified")
    @Outcome(expect = FORBIDDEN, desc = "interrupted")
    @State
    public static class TasukiDualRoles {
        final TasukiLock lock = new TasukiLock();
        boolean ready; // guarded by lock

        @Actor
        public void javaWaiter(I_Result r) {
            lock.lock();
            try {
                long left = TimeUnit.SECONDS.toNanos(2);
                while (!ready && left > 0) {
                    left = lock.awaitNanos(left);
                }
                r.r1 = ready && left <= 0 ? 1 : 0;
            } catch (InterruptedException e) {
                r.r1 = -1;
            } finally {
                lock.unlock();
            }
        }

        @Actor
        public void notifier() {
            lock.lock();
            try {
                ready = true;
                lock.signal();
            } finally {
                lock.unlock();
            }
        }
    }

    // ---- §5.4: reservation cancellation races -------------------------------------------------------------

    /**
     * An owner that has terminated, and one that parks forever: both are outside any unsafe region. In a
     * holder class of their own, so that no other test starts them; no lambdas, whose bodies would live in
     * the class being initialized (the started thread would wait for that initialization, which joins it).
     */
    static final class Owners {
        static final Thread DEAD = new Thread("dead-reservation-owner");
        static final Thread IDLE = new IdleThread();
        static {
            DEAD.start();
            try {
                DEAD.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            IDLE.setDaemon(true);
            IDLE.start();
        }

        static final class IdleThread extends Thread {
            IdleThread() {
                super("idle-reservation-owner");
            }

            @Override
            public void run() {
                while (true) {
                    java.util.concurrent.locks.LockSupport.park();
                }
            }
        }
    }

    static ReservationLock reservedTo(Thread owner) {
        ReservationLock lock = new ReservationLock();
        lock.reserveFor(owner);
        return lock;
    }

    @JCStressTest
    @Description("Two threads cancel the reservation of a dead owner at once: one cancellation, both enter")
    @Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "both entered, cancelled once")
    @Outcome(expect = FORBIDDEN, desc = "lost update or double cancellation")
    @State
    public static class ReservationOfDeadOwnerCancelledOnce {
        final ReservationLock lock = reservedTo(Owners.DEAD);
        final GuardedCounter counter = new GuardedCounter(lock);

        @Actor
        public void a() {
            counter.increment();
        }

        @Actor
        public void b() {
            counter.increment();
        }

        @Arbiter
        public void count(II_Result r) {
            r.r1 = counter.value;
            r.r2 = (int) lock.cancellationCount();
        }
    }

    @JCStressTest
    @Description("Two threads cancel the reservation of a live idle owner at once")
    @Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "both entered, cancelled once")
    @Outcome(expect = FORBIDDEN, desc = "lost update or double cancellation")
    @State
    public static class ReservationOfIdleOwnerCancelledOnce {
        final ReservationLock lock = reservedTo(Owners.IDLE);
        final GuardedCounter counter = new GuardedCounter(lock);

        @Actor
        public void a() {
            counter.increment();
        }

        @Actor
        public void b() {
            counter.increment();
        }

        @Arbiter
        public void count(II_Result r) {
            r.r1 = counter.value;
            r.r2 = (int) lock.cancellationCount();
        }
    }

    /**
     * The revocation race of the 2026-11-24 bug, with two threads (jcstress runs no more actors than CPUs):
     * the first actor to lock becomes the owner; the other cancels while the owner locks, unlocks and then
     * gives the reservation up itself in await(). The owner's in-flight store can land after the
     * canceller's CAS and reopen a reserved state that the owner's own cancellation then takes; exactly one
     * of the two may hand over. The old code let both hand over (one shared CANCELLING value): a second
     * cancellation, a lost update, or a hold handed to an owner that had released it (the actors never
     * finish: a jcstress timeout). ReservationCancellationTest runs the same race with three cancellers.
     */
    @JCStressTest
    @Description("Owner that self-cancels in await() against a canceller: one hand-over, every increment under the lock")
    @Outcome(id = "3, 1", expect = ACCEPTABLE, desc = "every increment under the lock, cancelled once")
    @Outcome(expect = FORBIDDEN, desc = "lost update, more than one hand-over, or interrupted")
    @State
    public static class ReservationRevokedWhileOwnerSelfCancels {
        final ReservationLock lock = new ReservationLock();
        final GuardedCounter counter = new GuardedCounter(lock);

        @Actor
        public void ownerThatWaits() {
            counter.increment();
            lock.lock();
            try {
                counter.value++;
                lock.awaitNanos(1); // self-cancellation if still reserved, then a Java-level wait on the base
            } catch (InterruptedException e) {
                counter.value = -1_000;
            } finally {
                lock.unlock();
            }
        }

        @Actor
        public void canceller() {
            counter.increment();
        }

        @Arbiter
        public void count(II_Result r) {
            r.r1 = counter.value;
            r.r2 = (int) lock.cancellationCount();
        }
    }
}
