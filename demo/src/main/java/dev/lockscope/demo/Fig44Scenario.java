package dev.lockscope.demo;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Seed 001 Fig. 4.4, in rounds: T1 holds L for 100 ms from t=0; T2 blocks at 10 ms, T3 at 20 ms; the
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
            Timeline tl = new Timeline();
            String prefix = "fig44-r" + round + "-";
            if (intrinsic) {
                Fig44Monitor m = new Fig44Monitor();
                tl.start(prefix + "T1", 0, () -> holdMonitor(m, 100));
                tl.start(prefix + "T2", 10, () -> holdMonitor(m, 50));
                tl.start(prefix + "T3", 20, () -> holdMonitor(m, 50));
            } else {
                ReentrantLock l = new ReentrantLock();
                tl.start(prefix + "T1", 0, () -> holdLock(l, 100));
                tl.start(prefix + "T2", 10, () -> holdLock(l, 50));
                tl.start(prefix + "T3", 20, () -> holdLock(l, 50));
            }
            tl.join();
        }
    }

    private static void holdMonitor(Object m, long ms) throws InterruptedException {
        synchronized (m) {
            Thread.sleep(ms);
        }
    }

    private static void holdLock(ReentrantLock l, long ms) throws InterruptedException {
        l.lock();
        try {
            Thread.sleep(ms);
        } finally {
            l.unlock();
        }
    }
}
