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

    /** A virtual thread that hands each item it takes back (JDK 21+; started reflectively, this jar is Java 17). */
    @State(Scope.Thread)
    public static class VirtualPartner {
        final java.util.concurrent.SynchronousQueue<Integer> in = new java.util.concurrent.SynchronousQueue<>();
        final java.util.concurrent.SynchronousQueue<Integer> out = new java.util.concurrent.SynchronousQueue<>();
        Thread partner;

        @org.openjdk.jmh.annotations.Setup
        public void start() throws ReflectiveOperationException {
            Runnable echo = () -> {
                try {
                    while (true) {
                        out.put(in.take());
                    }
                } catch (InterruptedException e) {
                    // torn down
                }
            };
            partner = (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, echo);
        }

        @org.openjdk.jmh.annotations.TearDown
        public void stop() {
            partner.interrupt();
        }
    }

    /**
     * A hand-off to a virtual thread and back: every call unparks it, so it mounts on a carrier and
     * unmounts again once (the cost of the agent's carrier mount hooks, option carriers; JDK 21+).
     */
    @Benchmark
    public int virtualHandoff(VirtualPartner p) throws InterruptedException {
        p.in.put(1);
        return p.out.take();
    }
}
