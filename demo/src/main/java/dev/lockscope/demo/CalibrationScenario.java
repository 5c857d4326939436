package dev.lockscope.demo;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Hofer §6 item 16: two call chains X and Y hold the same lock 9 ms and 1 ms and are called
 * equally often by four threads, so the lock is saturated. Expected owner-chain shares: X 90%, Y 10%.
 */
final class CalibrationScenario implements Scenario {
    static final int THREADS = 4;
    static final long X_MS = 9;
    static final long Y_MS = 1;
    /**
     * Monitors only: a short pause outside the monitor after each release, so that a woken waiter
     * usually takes it before the releasing thread comes back. A thread that takes a monitor back
     * without contention leaves no JFR event: the hand-off is invisible and its tenure cannot be
     * attributed. Shorter than Y, so the lock stays saturated during Y's holds too. ReentrantLock
     * needs no pause: its owner chains are recorded at every release.
     */
    static final long MONITOR_PAUSE_MICROS = 300;
    private final boolean intrinsic;
    private final Object monitor = new Object();
    private final ReentrantLock lock = new ReentrantLock();

    CalibrationScenario(boolean intrinsic) {
        this.intrinsic = intrinsic;
    }

    @Override
    public void run(double seconds) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        Timeline tl = new Timeline();
        for (int i = 0; i < THREADS; i++) {
            tl.start("calibration-" + i, 0, () -> {
                while (!stop.get()) {
                    if (intrinsic) {
                        chainXSync();
                        Scenario.briefly(MONITOR_PAUSE_MICROS);
                        chainYSync();
                        Scenario.briefly(MONITOR_PAUSE_MICROS);
                    } else {
                        chainXJuc();
                        chainYJuc();
                    }
                }
            });
        }
        tl.at((long) (seconds * 1000));
        stop.set(true);
        tl.join();
    }

    private void chainXSync() throws InterruptedException {
        synchronized (monitor) {
            hold("X", X_MS);
        }
    }

    private void chainYSync() throws InterruptedException {
        synchronized (monitor) {
            hold("Y", Y_MS);
        }
    }

    private void chainXJuc() throws InterruptedException {
        lock.lock();
        try {
            hold("X", X_MS);
        } finally {
            lock.unlock();
        }
    }

    private void chainYJuc() throws InterruptedException {
        lock.lock();
        try {
            hold("Y", Y_MS);
        } finally {
            lock.unlock();
        }
    }

    /** Sleeps while holding the lock and adds the real hold time to the chain's total (sleeps overshoot on a busy machine). */
    private static void hold(String chain, long ms) throws InterruptedException {
        long start = System.nanoTime();
        Thread.sleep(ms);
        Truth.add("hold-" + chain, System.nanoTime() - start);
    }
}
