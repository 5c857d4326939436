package dev.lockscope.locks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The reservation lock's cancellation race, many times over: every round takes a fresh lock, so every round
 * has one anonymous-to-specific reservation and one cancellation by three contenders while the owner is
 * locking and unlocking (its in-flight store can land after a canceller's CAS, and a second canceller can
 * take the reopened state). {@link LockContractTest} does that once per run; the 2026-11-24 bug showed in
 * about one of five such runs. Here the old code fails within a few hundred rounds: with a lost hold (the
 * round never ends), a lost update, a second cancellation or a lock left held. The module's build runs this
 * test a second time in the interpreter ({@code -Xint}), where the owner can stop anywhere inside its
 * unsafe region; compiled code only stops at polls outside it.
 */
class ReservationCancellationTest {

    private static final int THREADS = 4;
    private static final int INCREMENTS = 100;
    private static final int ROUNDS = Integer.getInteger("lockscope.reservation.rounds", 1_000);
    /** A round takes milliseconds; a lost hold never ends it. Generous for a loaded 2-core machine. */
    private static final long ROUND_TIMEOUT_S = 60;

    /**
     * An interpreted owner stopped inside the VarHandle store of its region: the stack the old check read as
     * "outside" (it skipped only java.lang.invoke and jdk.internal frames, then looked at one frame).
     */
    @Test
    void anOwnerStoppedInItsRegionsVarHandlePlumbingIsInside() {
        StackTraceElement[] inStore = {
            frame("java.lang.Class", "isInstance"),
            frame("java.lang.Class", "cast"),
            frame("java.lang.invoke.VarHandleLongs$FieldInstanceReadWrite", "setRelease"),
            frame("java.lang.invoke.VarHandleGuards", "guard_LJ_V"),
            frame(ReservationLock.class.getName(), "enterIfReserved"),
            frame(ReservationLock.class.getName(), "acquireReservedOrPrepareBase"),
            frame(ReservationLock.class.getName(), "lock"),
            frame("app.Worker", "run"),
        };
        assertThat(ReservationLock.inUnsafeRegion(inStore)).isTrue();
        StackTraceElement[] inHelper = {
            frame(ReservationLock.class.getName(), "ownerOf"),
            frame(ReservationLock.class.getName(), "exitIfReserved"),
            frame(ReservationLock.class.getName(), "unlock"),
            frame("app.Worker", "run"),
        };
        assertThat(ReservationLock.inUnsafeRegion(inHelper)).isTrue();
    }

    @Test
    void anOwnerOutsideItsRegionsIsOutside() {
        StackTraceElement[] spinning = {
            frame("java.lang.Thread", "yield"),
            frame(ReservationLock.class.getName(), "pause"),
            frame(ReservationLock.class.getName(), "acquireReservedOrPrepareBase"),
            frame(ReservationLock.class.getName(), "lock"),
            frame("app.Worker", "run"),
        };
        assertThat(ReservationLock.inUnsafeRegion(spinning)).isFalse();
        StackTraceElement[] inBase = {
            frame(TasukiLock.class.getName(), "flatTryAcquire"),
            frame(ReservationLock.class.getName(), "lock"),
            frame("app.Worker", "run"),
        };
        assertThat(ReservationLock.inUnsafeRegion(inBase)).isFalse();
        assertThat(ReservationLock.inUnsafeRegion(new StackTraceElement[] {frame("app.Worker", "run")})).isFalse();
        assertThat(ReservationLock.inUnsafeRegion(new StackTraceElement[0])).isFalse();
    }

    private static StackTraceElement frame(String cls, String method) {
        return new StackTraceElement(cls, method, null, -1);
    }

    private ReservationLock lock;
    private long counter; // guarded by lock
    private int round;
    private String failure;

    @Test
    void everyRoundCancelsOnceAndKeepsMutualExclusion() throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(THREADS, this::checkRoundAndStartNext);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread worker = new Thread(() -> work(barrier), "reservation-stress-" + t);
            worker.setDaemon(true); // a lost hold leaves the workers blocked for good; do not keep the JVM
            workers.add(worker);
            worker.start();
        }
        // A stuck round ends by the barrier's timeout; the workers blocked in lock() stay blocked (daemons).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ROUND_TIMEOUT_S) * (ROUNDS + 2);
        for (Thread worker : workers) {
            while (worker.isAlive() && failureOrNull() == null && System.nanoTime() < deadline) {
                worker.join(1_000);
            }
        }
        synchronized (this) {
            assertThat(failure).as("first failure").isNull();
            assertThat(round).as("rounds completed").isEqualTo(ROUNDS + 1);
        }
    }

    private void work(CyclicBarrier barrier) {
        try {
            while (true) {
                barrier.await(ROUND_TIMEOUT_S, TimeUnit.SECONDS);
                ReservationLock current;
                synchronized (this) {
                    if (failure != null || round > ROUNDS) {
                        return;
                    }
                    current = lock;
                }
                for (int i = 0; i < INCREMENTS; i++) {
                    current.lock();
                    try {
                        counter++;
                    } finally {
                        current.unlock();
                    }
                }
            }
        } catch (TimeoutException e) {
            fail("did not end in " + ROUND_TIMEOUT_S + " s: a hold was lost");
        } catch (InterruptedException | BrokenBarrierException e) {
            fail(e.toString());
        }
    }

    /** The barrier action: runs in the last worker to arrive, after every worker's round (happens-before). */
    private synchronized void checkRoundAndStartNext() {
        if (round > 0 && failure == null) {
            if (counter != (long) THREADS * INCREMENTS) {
                failure = "round " + round + ": " + counter + " of " + THREADS * INCREMENTS + " increments (" + describe() + ")";
            } else if (lock.cancellationCount() != 1) {
                failure = "round " + round + ": " + lock.cancellationCount() + " cancellations (" + describe() + ")";
            } else if (!lock.tryLock()) {
                failure = "round " + round + ": lock held after every thread released it (" + describe() + ")";
            } else {
                lock.unlock();
            }
        }
        round++;
        counter = 0;
        lock = new ReservationLock();
    }

    private String describe() {
        ReservationLock current = lock;
        return "cancelled=" + current.isReservationCancelled() + ", base free=" + current.base().isFreeFlat()
                + ", cancellations=" + current.cancellationCount();
    }

    private synchronized void fail(String what) {
        if (failure == null) {
            failure = "round " + round + " " + what + " (" + describe() + ")";
        }
    }

    private synchronized String failureOrNull() {
        return failure;
    }
}
