package dev.lockscope.locks.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Kawachiya's contention micro-benchmarks (Table 4.5): FlatFat (does a lock regain flat speed after a fat
 * section?), LongLocker (does a long holder get slower when others wait for it, i.e. do waiters burn CPU?)
 * and Thrashing (two threads that contend on every entry: inflation and deflation each time).
 * {@code synchronized} is the kind "synchronized".
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ContentionBenchmark {

    @Param({"synchronized", "ReentrantLock", "tasuki", "asymmetric", "asymmetric-tasuki", "reservation"})
    public String kind;

    Lock lock;
    final Object monitor = new Object();
    int counter;

    @Setup(Level.Trial)
    public void setUp() {
        lock = kind.equals("synchronized") ? null : Locks.create(kind);
    }

    void enterAndLeave() {
        if (lock == null) {
            synchronized (monitor) {
                counter++;
            }
        } else {
            lock.lock();
            try {
                counter++;
            } finally {
                lock.unlock();
            }
        }
    }

    // ---- FlatFat ------------------------------------------------------------------------------------------

    static final int FLAT_SECTION = 10_000;

    /** The flat section's history: never contended, or right after a fat section of 4 threads. */
    @State(Scope.Benchmark)
    public static class FlatFatHistory {
        @Param({"never-contended", "after-contention"})
        public String history;

        @Setup(Level.Iteration)
        public void fatSection(ContentionBenchmark b) throws InterruptedException {
            if (!history.equals("after-contention")) {
                return;
            }
            int threads = 4;
            CountDownLatch start = new CountDownLatch(1);
            Thread[] workers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                workers[t] = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < 20_000; i++) {
                        b.enterAndLeave();
                    }
                });
                workers[t].start();
            }
            start.countDown();
            for (Thread w : workers) {
                w.join();
            }
        }
    }

    /** Time per entry of a single thread's flat section. */
    @Benchmark
    @OperationsPerInvocation(FLAT_SECTION)
    @Warmup(iterations = 3, time = 200, timeUnit = TimeUnit.MILLISECONDS)
    @Measurement(iterations = 8, time = 200, timeUnit = TimeUnit.MILLISECONDS)
    public int flatFat(FlatFatHistory history) {
        for (int i = 0; i < FLAT_SECTION; i++) {
            enterAndLeave();
        }
        return counter;
    }

    // ---- Thrashing ----------------------------------------------------------------------------------------

    /** Two threads, each entry with a little work inside, so that nearly every entry meets the other. */
    @Benchmark
    @Group("thrashing")
    @GroupThreads(2)
    @Warmup(iterations = 3, time = 200, timeUnit = TimeUnit.MILLISECONDS)
    @Measurement(iterations = 8, time = 200, timeUnit = TimeUnit.MILLISECONDS)
    public void thrashing() {
        if (lock == null) {
            synchronized (monitor) {
                counter++;
                Blackhole.consumeCPU(50);
            }
        } else {
            lock.lock();
            try {
                counter++;
                Blackhole.consumeCPU(50);
            } finally {
                lock.unlock();
            }
        }
    }

    // ---- LongLocker ---------------------------------------------------------------------------------------

    /** Waiting threads besides the holder (the thesis's n - 1). */
    @State(Scope.Benchmark)
    public static class Waiters {
        @Param({"1", "7"})
        public int count;
    }

    static final long LONG_WORK_TOKENS = 2_000_000;

    /**
     * The holder takes the lock, lets the waiters start and try, then computes for a fixed amount of work and
     * releases; the score is the holder's time. Waiters that park cost it nothing; waiters that spin take its
     * CPU (2 cores here).
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 3)
    @Measurement(iterations = 10)
    public void longLocker(Waiters waiters) throws InterruptedException {
        CountDownLatch waitersStarted = new CountDownLatch(waiters.count);
        Thread[] threads = new Thread[waiters.count];
        if (lock == null) {
            synchronized (monitor) {
                startWaiters(threads, waitersStarted);
                Blackhole.consumeCPU(LONG_WORK_TOKENS);
            }
        } else {
            lock.lock();
            try {
                startWaiters(threads, waitersStarted);
                Blackhole.consumeCPU(LONG_WORK_TOKENS);
            } finally {
                lock.unlock();
            }
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    private void startWaiters(Thread[] threads, CountDownLatch started) throws InterruptedException {
        for (int i = 0; i < threads.length; i++) {
            threads[i] = new Thread(() -> {
                started.countDown();
                enterAndLeave();
            });
            threads[i].start();
        }
        started.await();
    }
}
