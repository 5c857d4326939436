package dev.lockscope.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
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
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
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
