package dev.lockscope.locks.bench;

import dev.lockscope.locks.AsymmetricLock;
import dev.lockscope.locks.AsymmetricTasukiLock;
import dev.lockscope.locks.ReservationLock;
import dev.lockscope.locks.TasukiLock;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/** The locks the benchmarks compare; {@code synchronized} is measured by separate benchmark methods. */
final class Locks {

    private Locks() {
    }

    /** The lock of that kind; null for "synchronized", which the benchmarks measure with a plain monitor. */
    static Lock create(String kind) {
        switch (kind) {
            case "synchronized": return null;
            case "ReentrantLock": return new ReentrantLock();
            case "tasuki": return new TasukiLock();
            case "asymmetric": return new AsymmetricLock();
            case "asymmetric-tasuki": return new AsymmetricTasukiLock();
            case "reservation": return new ReservationLock();
            default: throw new IllegalArgumentException("unknown lock kind " + kind);
        }
    }

    /** Puts a library lock into its fat mode for good: a Java-level wait (the wait group is never deflated). */
    static void inflateForGood(Lock lock) {
        lock.lock();
        try {
            if (lock instanceof TasukiLock) {
                ((TasukiLock) lock).awaitNanos(1);
            } else if (lock instanceof AsymmetricTasukiLock) {
                ((AsymmetricTasukiLock) lock).awaitNanos(1);
            } else if (lock instanceof ReservationLock) {
                ((ReservationLock) lock).awaitNanos(1); // cancels the reservation, then inflates the base
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    /** {@code Object.wait(1)} on a monitor: HotSpot inflates it (it may deflate it again asynchronously). */
    static void inflate(Object monitor) {
        synchronized (monitor) {
            try {
                monitor.wait(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Runs {@code body} on a new thread, waits until it is done, and keeps that thread alive (parked) until
     * {@link #endOtherThreads()}: the locks it used stay biased to / reserved by a live thread, so a second
     * thread's first acquisition pays the full cancellation (stopping a live owner), as in the thesis.
     */
    static void onOtherThread(Runnable body) {
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Thread t = new Thread(() -> {
            body.run();
            done.countDown();
            while (!Thread.currentThread().isInterrupted()) {
                java.util.concurrent.locks.LockSupport.park();
            }
        }, "other");
        t.setDaemon(true);
        t.start();
        OTHER_THREADS.add(t);
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final java.util.List<Thread> OTHER_THREADS = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Ends the threads {@link #onOtherThread} kept alive (call at the end of each iteration). */
    static void endOtherThreads() {
        for (Thread t : OTHER_THREADS) {
            t.interrupt();
        }
        OTHER_THREADS.clear();
    }
}
