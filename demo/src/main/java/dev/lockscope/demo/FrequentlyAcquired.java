package dev.lockscope.demo;

import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The J9 park-contention report §5.3 (Listing 5.2): two locks with equal 32 ms critical sections; each operation picks
 * the first with probability 0.75. The first lock is the bottleneck.
 *
 * <p>One change from the seed's listing: each operation ends with {@link #OUTSIDE_MS} of work outside
 * any lock. Without it a thread that releases a monitor re-enters it at once, before the successor
 * HotSpot woke can run; such barging holds never block, so JFR records no event for them and every
 * hold-time estimate from contention events (the seed's included) overstates the hold. Real code
 * does some work between acquisitions; the bottleneck is unchanged.
 */
final class FrequentlyAcquired implements Workload {
    static final long S = 32;
    static final double P = 0.75;
    static final long OUTSIDE_MS = 1;
    private final boolean intrinsic;
    private final ReentrantLock l1 = new ReentrantLock();
    private final ReentrantLock l2 = new ReentrantLock();
    private final Object m1 = new Object();
    private final Object m2 = new Object();
    private long counter1, counter2;
    /** Each thread's choices; from {@code --seed} when given, so that runs with different seeds differ reproducibly. */
    private final ThreadLocal<Random> choices;

    FrequentlyAcquired(boolean intrinsic, Long seed) {
        this.intrinsic = intrinsic;
        AtomicLong threads = new AtomicLong();
        this.choices = ThreadLocal.withInitial(() -> seed == null ? ThreadLocalRandom.current()
                : new Random(seed * 1_000_003 + threads.incrementAndGet()));
    }

    @Override
    public long operation() throws InterruptedException {
        boolean first = choices.get().nextDouble() < P;
        if (intrinsic) {
            if (first) {
                syncFrequent();
            } else {
                syncRare();
            }
        } else if (first) {
            jucFrequent();
        } else {
            jucRare();
        }
        Workload.sleep(OUTSIDE_MS);
        return 2;
    }

    private void jucFrequent() throws InterruptedException {
        l1.lock();
        try {
            counter1++;
            Workload.sleep(S);
        } finally {
            l1.unlock();
        }
    }

    private void jucRare() throws InterruptedException {
        l2.lock();
        try {
            counter2++;
            Workload.sleep(S);
        } finally {
            l2.unlock();
        }
    }

    private void syncFrequent() throws InterruptedException {
        synchronized (m1) {
            counter1++;
            Workload.sleep(S);
        }
    }

    private void syncRare() throws InterruptedException {
        synchronized (m2) {
            counter2++;
            Workload.sleep(S);
        }
    }
}
