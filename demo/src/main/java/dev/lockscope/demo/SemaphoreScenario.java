package dev.lockscope.demo;

import java.util.concurrent.Semaphore;

/**
 * A one-permit Semaphore (generic analyzer): the holder keeps the permit 50 ms; A and B ask at 10 ms
 * (timeline from the holder's acquisition). Expected: ≈ 40 ms of park time for the first of them and
 * ≈ 45 ms for the other, owner unknown (a semaphore has no owner).
 */
final class SemaphoreScenario implements Scenario {
    private final Semaphore permits = new Semaphore(1);

    @Override
    public void run(double seconds) throws InterruptedException {
        Timeline outer = new Timeline();
        outer.start("semaphore-holder", 0, () -> {
            Timeline tl;
            permits.acquire();
            try {
                Truth.mark("acquired");
                tl = new Timeline();
                tl.start("semaphore-A", 10, () -> hold(5));
                tl.start("semaphore-B", 10, () -> hold(5));
                tl.at(50);
                Truth.mark("release");
            } finally {
                permits.release();
            }
            Truth.mark("released");
            tl.join();
        });
        outer.join();
    }

    private void hold(long ms) throws InterruptedException {
        Truth.mark("request");
        permits.acquire();
        try {
            Truth.mark("acquired");
            Thread.sleep(ms);
            Truth.mark("release");
        } finally {
            permits.release();
        }
        Truth.mark("released");
    }
}
