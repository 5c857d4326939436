package dev.lockscope.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A scripted run with a known answer for owner blame: threads that take locks at fixed times on a
 * shared timeline. Hold times are sleeps inside the critical section, so waiters block for real
 * (JDK 25 resolves short monitor contention by spinning).
 */
interface Scenario {
    /** Runs the script; {@code seconds} is used by the saturated workloads, ignored by fixed timelines. */
    void run(double seconds) throws InterruptedException;

    /** A time origin and the threads started against it. */
    final class Timeline {
        private final long t0 = System.nanoTime();
        private final List<Thread> threads = new ArrayList<>();

        /** Sleeps until {@code ms} after the origin. */
        void at(long ms) throws InterruptedException {
            long left = t0 + TimeUnit.MILLISECONDS.toNanos(ms) - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
        }

        /** Starts a thread that waits until {@code ms} after the origin and then runs {@code body}. */
        void start(String name, long ms, Body body) {
            Thread t = new Thread(() -> {
                try {
                    at(ms);
                    body.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, name);
            threads.add(t);
            t.start();
        }

        void join() throws InterruptedException {
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    interface Body {
        void run() throws InterruptedException;
    }

    /** Takes {@code lock}, holds it {@code ms}, releases it; marks request, acquired, release (before unlocking) and released (after) in {@link Truth}. */
    static void holdLock(java.util.concurrent.locks.Lock lock, long ms) throws InterruptedException {
        Truth.mark("request");
        lock.lock();
        try {
            Truth.mark("acquired");
            Thread.sleep(ms);
            Truth.mark("release");
        } finally {
            lock.unlock();
        }
        Truth.mark("released");
    }

    /** {@link #holdLock} for a monitor. */
    static void holdMonitor(Object monitor, long ms) throws InterruptedException {
        Truth.mark("request");
        synchronized (monitor) {
            Truth.mark("acquired");
            Thread.sleep(ms);
            Truth.mark("release");
        }
        Truth.mark("released");
    }

    /** Holds the current lock for a short time without a recorded park (no blocker) and without sleep's 1 ms rounding. */
    static void briefly(long micros) {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(micros));
    }
}
