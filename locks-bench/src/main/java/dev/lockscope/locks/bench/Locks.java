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

    /** Runs {@code body} on a new thread and waits for it (the "other thread" of the transition benchmarks). */
    static void onOtherThread(Runnable body) {
        Thread t = new Thread(body, "other");
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
