package dev.lockscope.demo;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Seed 001 Fig. 4.6 with a non-fair ReentrantLock: T1 holds 100 ms; T2 parks at 10 ms, T4 at 20 ms;
 * T3 spins on tryLock from 30 ms and barges in when T1 unlocks (T1 unparked T2, which is still waking
 * up), holds 30 ms; then T2 and T4 get the lock in turn for 10 ms each. Expected: T2 ≈ 90 ms on T1 and
 * ≈ 30 ms on T3; T4 ≈ 80 ms on T1, ≈ 30 ms on T3 (never unparked by T3) and ≈ 10 ms on T2.
 */
final class BargingScenario implements Scenario {
    private final ReentrantLock lock = new ReentrantLock();

    @Override
    public void run(double seconds) throws InterruptedException {
        Timeline tl = new Timeline();
        tl.start("barging-T1", 0, () -> hold(100));
        tl.start("barging-T2", 10, () -> hold(10));
        tl.start("barging-T4", 20, () -> hold(10));
        tl.start("barging-T3", 30, () -> {
            while (!lock.tryLock()) {
                Thread.onSpinWait();
            }
            try {
                Thread.sleep(30);
            } finally {
                lock.unlock();
            }
        });
        tl.join();
    }

    private void hold(long ms) throws InterruptedException {
        lock.lock();
        try {
            Thread.sleep(ms);
        } finally {
            lock.unlock();
        }
    }
}
