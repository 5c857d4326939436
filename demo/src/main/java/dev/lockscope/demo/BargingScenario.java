package dev.lockscope.demo;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Hofer Fig. 4.6 with a non-fair ReentrantLock: T1 holds 100 ms; T2 parks at 10 ms, T4 at 20 ms;
 * T3 polls tryLock from 30 ms and barges in when T1 unlocks (T1 unparked T2, which is still waking
 * up), holds 30 ms; then T2 and T4 get the lock in turn for 10 ms each. Expected: T2 ≈ 90 ms on T1 and
 * ≈ 30 ms on T3; T4 ≈ 80 ms on T1, ≈ 30 ms on T3 (never unparked by T3) and ≈ 10 ms on T2.
 * The timeline starts when T1 holds the lock.
 */
final class BargingScenario implements Scenario {
    private final ReentrantLock lock = new ReentrantLock();

    @Override
    public void run(double seconds) throws InterruptedException {
        Timeline outer = new Timeline();
        outer.start("barging-T1", 0, () -> {
            Timeline tl;
            lock.lock();
            try {
                Truth.mark("acquired");
                tl = new Timeline();
                tl.start("barging-T2", 10, () -> Scenario.holdLock(lock, 10));
                tl.start("barging-T4", 20, () -> Scenario.holdLock(lock, 10));
                tl.start("barging-T3", 30, this::barge);
                tl.at(100);
                Truth.mark("release");
            } finally {
                lock.unlock();
            }
            Truth.mark("released");
            tl.join();
        });
        outer.join();
    }

    /** Polls instead of queueing, so it takes the lock in the moment between T1's unlock and T2's wake-up. */
    private void barge() throws InterruptedException {
        Truth.mark("request");
        while (!lock.tryLock()) {
            Thread.yield(); // leaves the CPU to T1, so that T1's unpark is not delayed on a small machine
        }
        try {
            Truth.mark("acquired");
            Thread.sleep(30);
            Truth.mark("release");
        } finally {
            lock.unlock();
        }
        Truth.mark("released");
    }
}
