package dev.lockscope.bench;

import java.util.concurrent.Semaphore;

/**
 * A thread with a known split of its time: in every round it computes ({@code compute}), sleeps
 * ({@code nap}) and waits for a monitor that another thread holds ({@code awaitLock}), each phase
 * timed by the thread itself. Prints {@code truth-total <phase> <nanos>} for each phase and for the
 * whole loop, the truth a wall-clock profile's shares are checked against (the e2e test
 * WallProfileTruthIT, and the profile-agreement section of the performance report).
 *
 * <p>Arguments: rounds, then the compute, sleep and lock-wait milliseconds of one round.
 */
public final class TimeSplitWorkload {
    private static final Object LOCK = new Object();
    private static final Semaphore HOLD = new Semaphore(0);
    private static volatile boolean held;
    private static volatile long sink;

    private TimeSplitWorkload() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        long computeMs = Long.parseLong(args[1]);
        long sleepMs = Long.parseLong(args[2]);
        long lockMs = Long.parseLong(args[3]);
        Thread holder = new Thread(() -> holdLock(lockMs), "split-holder");
        holder.setDaemon(true);
        holder.start();
        long[] phases = new long[3];
        long[] loop = new long[1];
        Thread worker = new Thread(() -> {
            long start = System.nanoTime();
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                compute(computeMs);
                long t1 = System.nanoTime();
                nap(sleepMs);
                long t2 = System.nanoTime();
                awaitLock();
                long t3 = System.nanoTime();
                phases[0] += t1 - t0;
                phases[1] += t2 - t1;
                phases[2] += t3 - t2;
            }
            loop[0] = System.nanoTime() - start;
        }, "split-worker");
        worker.start();
        worker.join();
        System.out.println("truth-total compute " + phases[0]);
        System.out.println("truth-total nap " + phases[1]);
        System.out.println("truth-total awaitLock " + phases[2]);
        System.out.println("truth-total loop " + loop[0]);
    }

    static void compute(long ms) {
        long deadline = System.nanoTime() + ms * 1_000_000;
        long x = 1;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 1000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
    }

    static void nap(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Asks the holder to take the monitor, waits until it has, then blocks entering it until the holder lets go. */
    static void awaitLock() {
        HOLD.release();
        while (!held) {
            Thread.onSpinWait();
        }
        synchronized (LOCK) {
            held = false;
        }
    }

    private static void holdLock(long ms) {
        while (true) {
            HOLD.acquireUninterruptibly();
            synchronized (LOCK) {
                held = true;
                nap(ms);
            }
        }
    }
}
