package dev.lockscope.locks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@link Lock} contract, for every lock of the library. */
class LockContractTest {

    static Stream<Named<Supplier<Lock>>> locks() {
        return Stream.of(
                Named.of("tasuki", TasukiLock::new),
                Named.of("asymmetric", AsymmetricLock::new),
                Named.of("asymmetric tasuki", AsymmetricTasukiLock::new),
                Named.of("reservation", ReservationLock::new));
    }

    /** Several threads increment a plain counter; a lost update means two threads were inside at once. */
    @ParameterizedTest
    @MethodSource("locks")
    void excludesThreadsFromEachOther(Supplier<Lock> factory) throws Exception {
        Lock lock = factory.get();
        int threads = 4;
        int rounds = 20_000;
        long[] counter = {0};
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                awaitQuietly(start);
                for (int i = 0; i < rounds; i++) {
                    lock.lock();
                    try {
                        counter[0]++;
                    } finally {
                        lock.unlock();
                    }
                }
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertThat(counter[0]).isEqualTo((long) threads * rounds);
    }

    @ParameterizedTest
    @MethodSource("locks")
    void isReentrantAndFreeAfterTheLastUnlock(Supplier<Lock> factory) throws Exception {
        Lock lock = factory.get();
        lock.lock();
        lock.lock();
        assertThat(lock.tryLock()).isTrue();
        lock.unlock();
        lock.unlock();
        assertThat(otherThreadCanTake(lock)).isFalse();
        lock.unlock();
        assertThat(otherThreadCanTake(lock)).isTrue();
    }

    @ParameterizedTest
    @MethodSource("locks")
    void unlockWithoutHoldingIsIllegal(Supplier<Lock> factory) throws Exception {
        Lock lock = factory.get();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
        lock.lock(); // now reserved to / owned by this thread
        lock.unlock();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
        AtomicReference<Throwable> fromOther = new AtomicReference<>();
        lock.lock();
        Thread other = new Thread(() -> {
            try {
                lock.unlock();
            } catch (Throwable e) {
                fromOther.set(e);
            }
        });
        other.start();
        other.join();
        lock.unlock();
        assertThat(fromOther.get()).isInstanceOf(IllegalMonitorStateException.class);
    }

    @ParameterizedTest
    @MethodSource("locks")
    void timedTryLockGivesUpWhileAnotherThreadHoldsIt(Supplier<Lock> factory) throws Exception {
        Lock lock = factory.get();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            lock.lock();
            held.countDown();
            awaitQuietly(release);
            lock.unlock();
        });
        holder.start();
        held.await();
        assertThat(lock.tryLock(1, TimeUnit.MILLISECONDS)).isFalse();
        release.countDown();
        assertThat(lock.tryLock(1, TimeUnit.MINUTES)).isTrue();
        lock.unlock();
        holder.join();
    }

    static boolean otherThreadCanTake(Lock lock) throws InterruptedException {
        boolean[] took = {false};
        Thread other = new Thread(() -> {
            took[0] = lock.tryLock();
            if (took[0]) {
                lock.unlock();
            }
        });
        other.start();
        other.join();
        return took[0];
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
