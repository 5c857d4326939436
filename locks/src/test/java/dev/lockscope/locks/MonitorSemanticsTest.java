package dev.lockscope.locks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Tasuki-specific behaviour: modes, inflation, deflation, wait/notify (Kawachiya ch. 4 Properties). */
class MonitorSemanticsTest {

    @Test
    void uncontendedLockStaysFlat() {
        TasukiLock lock = new TasukiLock();
        for (int i = 0; i < 1000; i++) {
            lock.lock();
            lock.unlock();
        }
        assertThat(lock.isFat()).isFalse();
        assertThat(lock.inflationCount()).isZero();
    }

    /** A contender parks in the inflation loop, inflates when the holder leaves, and deflates at its exit. */
    @Test
    void contentionInflatesAndTheEndOfContentionDeflates() throws Exception {
        TasukiLock lock = new TasukiLock();
        lock.lock();
        Thread contender = new Thread(() -> {
            lock.lock();
            lock.unlock();
        });
        contender.start();
        while (contender.getState() != Thread.State.WAITING) {
            Thread.onSpinWait(); // parked in the inflation loop (a handshake on the thread state, not a sleep)
        }
        lock.unlock();
        contender.join();
        assertThat(lock.inflationCount()).isEqualTo(1);
        assertThat(lock.deflationCount()).isEqualTo(1);
        assertThat(lock.isFat()).isFalse();
    }

    /** Thrashing (Table 4.5): two threads forcing contention each round deflate and re-inflate, no leak. */
    @Test
    void alternatingContentionInflatesAndDeflatesRepeatedly() throws Exception {
        for (BimodalLock lock : new BimodalLock[] {new TasukiLock(), new AsymmetricTasukiLock()}) {
            int rounds = 200;
            Thread[] threads = new Thread[2];
            for (int t = 0; t < 2; t++) {
                threads[t] = new Thread(() -> {
                    for (int i = 0; i < rounds; i++) {
                        lock.lock();
                        try {
                            Thread.yield();
                        } finally {
                            lock.unlock();
                        }
                    }
                });
            }
            for (Thread t : threads) {
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            assertThat(lock.isFat()).isFalse();
            assertThat(lock.deflationCount()).isEqualTo(lock.inflationCount());
        }
    }

    @Test
    void awaitAndSignalWithoutHoldingAreIllegal() {
        TasukiLock lock = new TasukiLock();
        assertThatThrownBy(lock::await).isInstanceOf(IllegalMonitorStateException.class);
        assertThatThrownBy(lock::signal).isInstanceOf(IllegalMonitorStateException.class);
        ReservationLock reservation = new ReservationLock();
        reservation.lock();
        reservation.unlock();
        assertThatThrownBy(reservation::signal).isInstanceOf(IllegalMonitorStateException.class);
        assertThatThrownBy(reservation::await).isInstanceOf(IllegalMonitorStateException.class);
    }

    /** Property 4.6: a Java-level wait inflates; the recursion count is restored when the wait returns. */
    @Test
    void awaitInsideNestedHoldsRestoresEveryLevel() throws Exception {
        for (Object lock : new Object[] {new TasukiLock(), new AsymmetricTasukiLock(), new ReservationLock()}) {
            MonitorLike m = MonitorLike.of(lock);
            AtomicBoolean ready = new AtomicBoolean();
            CountDownLatch waiting = new CountDownLatch(1);
            boolean[] heldAfter = new boolean[4];
            Thread waiter = new Thread(() -> {
                m.lock();
                m.lock();
                m.lock();
                waiting.countDown();
                while (!ready.get()) {
                    m.await(); // spurious wake-ups tolerated: the condition is re-tested
                }
                for (int level = 0; level < 3; level++) {
                    m.unlock();
                    heldAfter[level] = m.held();
                }
                heldAfter[3] = true; // reached the end
            });
            waiter.start();
            waiting.await();
            m.lock(); // only possible once the waiter released all three holds in await
            ready.set(true);
            m.signal();
            m.unlock();
            waiter.join();
            assertThat(heldAfter).as("held after each unlock, then reached the end").containsExactly(true, true, false, true);
        }
    }

    /** Properties 4.7-4.9: signal in flat mode is a no-op; a signal never wakes an inflation waiter. */
    @Test
    void signalWakesJavaWaitersOnly() throws Exception {
        TasukiLock lock = new TasukiLock();
        lock.lock();
        lock.signal(); // flat: nobody can be waiting
        lock.unlock();
        AtomicInteger woken = new AtomicInteger();
        CountDownLatch waiting = new CountDownLatch(2);
        Thread[] waiters = new Thread[2];
        for (int i = 0; i < 2; i++) {
            waiters[i] = new Thread(() -> {
                lock.lock();
                try {
                    waiting.countDown();
                    lock.await();
                    woken.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    lock.unlock();
                }
            });
            waiters[i].start();
        }
        waiting.await();
        lock.lock();
        lock.signalAll();
        lock.unlock();
        for (Thread t : waiters) {
            t.join();
        }
        assertThat(woken.get()).isEqualTo(2);
        assertThat(lock.isFat()).isTrue(); // the wait group is never deflated (§4.6 policy)
    }

    @Test
    void reservationIsCancelledByASecondThreadAndNeverComesBack() throws Exception {
        ReservationLock lock = new ReservationLock();
        lock.lock();
        lock.unlock();
        assertThat(lock.isReserved()).isTrue();
        Thread other = new Thread(() -> {
            lock.lock();
            lock.unlock();
        });
        other.start();
        other.join();
        assertThat(lock.isReservationCancelled()).isTrue();
        assertThat(lock.cancellationCount()).isEqualTo(1);
        lock.lock();
        lock.unlock();
        assertThat(lock.isReserved()).isFalse();
    }

    /** Cancelling while the owner holds the lock hands its holds to the base lock: the canceller waits. */
    @Test
    void cancellationWhileTheOwnerHoldsKeepsTheOwnersHolds() throws Exception {
        ReservationLock lock = new ReservationLock();
        lock.lock();
        lock.lock();
        AtomicBoolean otherInside = new AtomicBoolean();
        Thread other = new Thread(() -> {
            lock.lock();
            otherInside.set(true);
            lock.unlock();
        });
        other.start();
        while (!lock.isReservationCancelled()) {
            Thread.onSpinWait();
        }
        assertThat(otherInside.get()).isFalse();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
        assertThat(otherInside.get()).isFalse();
        lock.unlock();
        other.join();
        assertThat(otherInside.get()).isTrue();
    }

    @Test
    void asymmetricLockIsBiasedToItsFirstLocker() throws Exception {
        AsymmetricTasukiLock lock = new AsymmetricTasukiLock();
        lock.lock();
        lock.unlock();
        assertThat(lock.ownerThreadId()).isEqualTo(Thread.currentThread().getId());
        Thread other = new Thread(() -> {
            lock.lock();
            lock.unlock();
        });
        other.start();
        other.join();
        assertThat(lock.ownerThreadId()).isEqualTo(Thread.currentThread().getId()); // never cancelled
    }

    /** The wait/notify API of the three monitor-like locks, so one test covers them all. */
    interface MonitorLike {
        void lock();
        void unlock();
        void await();
        void signal();
        boolean held();

        static MonitorLike of(Object lock) {
            return new MonitorLike() {
                public void lock() {
                    ((java.util.concurrent.locks.Lock) lock).lock();
                }
                public void unlock() {
                    ((java.util.concurrent.locks.Lock) lock).unlock();
                }
                public void await() {
                    try {
                        if (lock instanceof BimodalLock) {
                            ((BimodalLock) lock).await();
                        } else {
                            ((ReservationLock) lock).await();
                        }
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }
                public void signal() {
                    if (lock instanceof BimodalLock) {
                        ((BimodalLock) lock).signal();
                    } else {
                        ((ReservationLock) lock).signal();
                    }
                }
                public boolean held() {
                    return lock instanceof BimodalLock ? ((BimodalLock) lock).isHeldByCurrentThread()
                            : ((ReservationLock) lock).isHeldByCurrentThread();
                }
            };
        }
    }
}
