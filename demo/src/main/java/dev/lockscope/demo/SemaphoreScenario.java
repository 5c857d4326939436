package dev.lockscope.demo;

import java.util.concurrent.Semaphore;

/**
 * A one-permit Semaphore (generic analyzer): the holder keeps the permit 50 ms; two threads ask at
 * 10 ms. Expected: ≈ 40 ms of park time each (the second one also waits for the first), owner unknown.
 */
final class SemaphoreScenario implements Scenario {
    private final Semaphore permits = new Semaphore(1);

    @Override
    public void run(double seconds) throws InterruptedException {
        Timeline tl = new Timeline();
        tl.start("semaphore-holder", 0, () -> hold(50));
        tl.start("semaphore-A", 10, () -> hold(5));
        tl.start("semaphore-B", 10, () -> hold(5));
        tl.join();
    }

    private void hold(long ms) throws InterruptedException {
        permits.acquire();
        try {
            Thread.sleep(ms);
        } finally {
            permits.release();
        }
    }
}
