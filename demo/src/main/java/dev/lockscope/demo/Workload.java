package dev.lockscope.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** A demo workload: {@link #operation()} is called in a loop by every worker thread. */
public interface Workload {
    /** One unit of work; returns the number of operations it did. */
    long operation() throws InterruptedException;

    /** Runs the workload on {@code threads} workers for {@code millis}, returns the operations done. */
    static long runFor(Workload w, int threads, long millis) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder ops = new LongAdder();
        List<Thread> workers = new ArrayList<>();
        // All workers start together, as in the seed's runs: the first burst on each lock is then a
        // real queue, not a trickle of threads that happen to be started one by one. A yielding spin
        // rather than a latch, so the start gate does not show up as a contended lock in the report.
        AtomicBoolean go = new AtomicBoolean();
        AtomicInteger ready = new AtomicInteger();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    ready.incrementAndGet();
                    while (!go.get()) {
                        Thread.yield();
                    }
                    while (!stop.get()) {
                        ops.add(w.operation());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "worker-" + i);
            workers.add(t);
        }
        workers.forEach(Thread::start);
        while (ready.get() < threads) {
            Thread.yield();
        }
        go.set(true);
        Thread.sleep(millis);
        stop.set(true);
        for (Thread t : workers) {
            t.join();
        }
        return ops.sum();
    }

    static void sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }
}
