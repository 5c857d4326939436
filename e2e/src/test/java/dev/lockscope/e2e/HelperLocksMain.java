package dev.lockscope.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.util.thread.AutoLock;

/**
 * Three {@code ReentrantLock}s (held 10, 20 and 50 ms), three monitors (30, 60 and 120 ms) and two of Jetty 12's
 * {@code AutoLock}s (15 and 40 ms; a wrapper of a {@code ReentrantLock} whose {@code lock()} every Jetty component
 * calls), every one taken through one shared helper ({@link #hold(Lock, long)}, {@link #holdMonitor(Object, long)},
 * {@link #holdAuto(AutoLock, long)}) called from a method per lock: the program whose locks a row keyed by the
 * innermost application frame merged into one.
 * Three threads per lock take it in turn for {@code args[0]} seconds; each measures its own holds with
 * {@link System#nanoTime} and at the end the program prints {@code truth <method> <average hold ms>} per lock.
 * The ReentrantLocks are fair, and a monitor's holder pauses briefly after its release, so a waiting thread gets
 * every hand-off: each hold is then contended, as the table's average hold (the time a waiter was parked over
 * the parks) assumes. With two threads a lock went unwaited-for whenever its releaser was descheduled before it
 * asked again (13% of the time on a loaded 2-core CI machine, and the estimate 13% short); a third thread keeps
 * a waiter parked through every hold.
 */
public final class HelperLocksMain {
    /**
     * A monitor has no fair hand-off: a holder that asks again at once takes it back before the woken waiter runs
     * (on a loaded machine, about every other time). This pause lets the waiter in; it is short against the holds.
     */
    private static final long RELEASE_PAUSE_MILLIS = 2;

    private static final Lock TEN = new ReentrantLock(true);
    private static final Lock TWENTY = new ReentrantLock(true);
    private static final Lock FIFTY = new ReentrantLock(true);
    private static final Object THIRTY_MONITOR = new Object();
    private static final Object SIXTY_MONITOR = new Object();
    private static final Object ONE_TWENTY_MONITOR = new Object();
    private static final AutoLock FIFTEEN_AUTO = new AutoLock();
    private static final AutoLock FORTY_AUTO = new AutoLock();

    private static final int THREADS_PER_LOCK = 3;

    private static volatile long deadline;

    private HelperLocksMain() {
    }

    /** Takes the lock it is given for its caller: the helper a row is seen through. */
    static long hold(Lock lock, long millis) {
        lock.lock();
        try {
            long start = System.nanoTime();
            sleep(millis);
            return System.nanoTime() - start;
        } finally {
            lock.unlock();
        }
    }

    static long holdMonitor(Object monitor, long millis) {
        long held;
        synchronized (monitor) {
            long start = System.nanoTime();
            sleep(millis);
            held = System.nanoTime() - start;
        }
        sleep(RELEASE_PAUSE_MILLIS); // the waiter takes the monitor before this thread asks again
        return held;
    }

    /**
     * Through Jetty's wrapper, as its components take their locks. AutoLock's lock is not fair: like a monitor's
     * holder, this one pauses after its release so that the parked waiter gets the hand-off.
     */
    static long holdAuto(AutoLock lock, long millis) {
        long held;
        try (AutoLock ignored = lock.lock()) {
            long start = System.nanoTime();
            sleep(millis);
            held = System.nanoTime() - start;
        }
        sleep(RELEASE_PAUSE_MILLIS);
        return held;
    }

    static long autoFifteen() {
        return holdAuto(FIFTEEN_AUTO, 15);
    }

    static long autoForty() {
        return holdAuto(FORTY_AUTO, 40);
    }

    static long lockTen() {
        return hold(TEN, 10);
    }

    static long lockTwenty() {
        return hold(TWENTY, 20);
    }

    static long lockFifty() {
        return hold(FIFTY, 50);
    }

    static long monitorThirty() {
        return holdMonitor(THIRTY_MONITOR, 30);
    }

    static long monitorSixty() {
        return holdMonitor(SIXTY_MONITOR, 60);
    }

    static long monitorOneTwenty() {
        return holdMonitor(ONE_TWENTY_MONITOR, 120);
    }

    /** Holds by sleeping: twelve threads spinning on a small machine delay each waiter's wake-up by a scheduling quantum. */
    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private interface Holder {
        long hold();
    }

    public static void main(String[] args) throws Exception {
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[0]));
        String[] names = {"lockTen", "lockTwenty", "lockFifty", "monitorThirty", "monitorSixty", "monitorOneTwenty",
                "autoFifteen", "autoForty"};
        Holder[] holders = {HelperLocksMain::lockTen, HelperLocksMain::lockTwenty, HelperLocksMain::lockFifty,
                HelperLocksMain::monitorThirty, HelperLocksMain::monitorSixty, HelperLocksMain::monitorOneTwenty,
                HelperLocksMain::autoFifteen, HelperLocksMain::autoForty};
        long[][] sums = new long[names.length][2]; // per lock: nanos held, holds; guarded by itself
        List<Thread> threads = new ArrayList<>();
        for (int l = 0; l < names.length; l++) {
            for (int t = 0; t < THREADS_PER_LOCK; t++) {
                Holder h = holders[l];
                long[] sum = sums[l];
                Thread thread = new Thread(() -> {
                    long nanos = 0;
                    long count = 0;
                    while (System.nanoTime() < deadline) {
                        nanos += h.hold();
                        count++;
                    }
                    synchronized (sum) {
                        sum[0] += nanos;
                        sum[1] += count;
                    }
                }, names[l] + "-" + t);
                threads.add(thread);
                thread.start();
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int l = 0; l < names.length; l++) {
            System.out.printf(java.util.Locale.ROOT, "truth %s %.3f%n", names[l], sums[l][0] / 1e6 / Math.max(1, sums[l][1]));
        }
    }
}
