package dev.lockscope.demo;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Seed 001 §6 item 16: two call chains X and Y hold the same lock 9 ms and 1 ms and are called
 * equally often by four threads, so the lock is saturated. Expected owner-chain shares: X 90%, Y 10%.
 * A short pause outside the lock after each release lets the woken waiter take the lock rather than
 * the releasing thread barging back in.
 */
final class CalibrationScenario implements Scenario {
    static final int THREADS = 4;
    static final long X_MS = 9;
    static final long Y_MS = 1;
    /** Long enough for a woken waiter to run even on a busy machine; short enough to keep the lock saturated. */
    static final long PAUSE_MICROS = 2000;
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
                        Scenario.briefly(PAUSE_MICROS);
                        chainYSync();
                    } else {
                        chainXJuc();
                        Scenario.briefly(PAUSE_MICROS);
                        chainYJuc();
                    }
                    Scenario.briefly(PAUSE_MICROS);
                }
            });
        }
        tl.at((long) (seconds * 1000));
        stop.set(true);
        tl.join();
    }

    private void chainXSync() throws InterruptedException {
        synchronized (monitor) {
            Thread.sleep(X_MS);
        }
    }

    private void chainYSync() throws InterruptedException {
        synchronized (monitor) {
            Thread.sleep(Y_MS);
        }
    }

    private void chainXJuc() throws InterruptedException {
        lock.lock();
        try {
            Thread.sleep(X_MS);
        } finally {
            lock.unlock();
        }
    }

    private void chainYJuc() throws InterruptedException {
        lock.lock();
        try {
            Thread.sleep(Y_MS);
        } finally {
            lock.unlock();
        }
    }
}
