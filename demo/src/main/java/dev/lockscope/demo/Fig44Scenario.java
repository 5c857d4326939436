package dev.lockscope.demo;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Hofer Fig. 4.4, in rounds: T1 holds L for 100 ms from t=0; T2 blocks at 10 ms, T3 at 20 ms; the
 * first of them to get L holds it 50 ms, then the other. Expected: the first waiter through is blamed
 * on T1 only; the other ≈ (100 − its start) ms on T1 and ≈ 50 ms on the first. Non-fair ReentrantLock
 * serves T2 first; monitors may serve T3 first (JDK 17 hands a monitor to the latest arrival).
 */
final class Fig44Scenario implements Scenario {
    static final int ROUNDS = 3;
    private final boolean intrinsic;

    Fig44Scenario(boolean intrinsic) {
        this.intrinsic = intrinsic;
    }

    /** The monitor's own class, so that tests can find it in the recording. */
    static final class Fig44Monitor {
    }

    @Override
    public void run(double seconds) throws InterruptedException {
        for (int round = 1; round <= ROUNDS; round++) {
            String prefix = "fig44-r" + round + "-";
            Timeline outer = new Timeline();
            if (intrinsic) {
                Fig44Monitor m = new Fig44Monitor();
                outer.start(prefix + "T1", 0, () -> {
                    Timeline waiters;
                    synchronized (m) {
                        Truth.mark("acquired");
                        waiters = startWaiters(prefix, () -> Scenario.holdMonitor(m, 50));
                        Truth.mark("release");
                    }
                    Truth.mark("released");
                    waiters.join();
                });
            } else {
                ReentrantLock l = new ReentrantLock();
                outer.start(prefix + "T1", 0, () -> {
                    Timeline waiters;
                    l.lock();
                    try {
                        Truth.mark("acquired");
                        waiters = startWaiters(prefix, () -> Scenario.holdLock(l, 50));
                        Truth.mark("release");
                    } finally {
                        l.unlock();
                    }
                    Truth.mark("released");
                    waiters.join();
                });
            }
            outer.join();
        }
    }

    /**
     * Runs in T1 while it holds the lock, so the timeline starts at T1's acquisition: starts T2 at
     * 10 ms and T3 at 20 ms, and returns at 100 ms, when T1 releases.
     */
    private static Timeline startWaiters(String prefix, Body waiter) throws InterruptedException {
        Timeline tl = new Timeline();
        tl.start(prefix + "T2", 10, waiter);
        tl.start(prefix + "T3", 20, waiter);
        tl.at(100);
        return tl;
    }

}
