package dev.lockscope.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The micro-workloads of the overhead harness: a hot contended counter with a tiny critical section
 * (synchronized and ReentrantLock; run with several JMH threads), and uncontended synchronized calls
 * (run with one thread), and a park on the thread's own blocker (run with 1, 2 and 4 threads: the
 * agent's scaling check, issue 14). The harness runs them with {@code -f 0} inside a JVM it started
 * with the profiler configuration under test.
 */
@BenchmarkMode(Mode.Throughput)
public class LockMicroBenchmarks {
    @State(Scope.Benchmark)
    public static class Shared {
        final Object monitor = new Object();
        final ReentrantLock lock = new ReentrantLock();
        long counter;
    }

    @State(Scope.Thread)
    public static class Own {
        long counter;

        // not inlined, so the monitor is really entered on every call (no lock elision)
        @CompilerControl(CompilerControl.Mode.DONT_INLINE)
        synchronized long increment() {
            return ++counter;
        }
    }

    @Benchmark
    public long syncCounter(Shared s) {
        synchronized (s.monitor) {
            return ++s.counter;
        }
    }

    @Benchmark
    public long lockCounter(Shared s) {
        s.lock.lock();
        try {
            return ++s.counter;
        } finally {
            s.lock.unlock();
        }
    }

    /**
     * A park that returns at once (the thread gave itself the permit) on a blocker no other thread
     * touches: every call runs the agent's park hooks, and nothing is shared between threads except
     * what the profiler itself shares, so the cost per call must not grow with the thread count.
     */
    @Benchmark
    public void parkOwnBlocker(Own o) {
        LockSupport.unpark(Thread.currentThread());
        LockSupport.park(o);
    }

    @Benchmark
    public long uncontendedSync(Own o) {
        return o.increment();
    }
}
