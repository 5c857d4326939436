package dev.lockscope.demo;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Owner-blame ground truth (issue 16): one lock held by two or three methods ({@code siteA},
 * {@code siteB}, {@code siteC}) called back to back by every thread, with no work between a release
 * and the next acquisition, so that a releasing thread often takes a monitor back without contention
 * (HotSpot lets it barge) and JFR records no event for that tenure. Each site holds the lock
 * {@code part × unit} ms ({@code --split 3:7 --unit-ms 1}: 3 ms and 7 ms). The workload measures its
 * own truth with {@code System.nanoTime()}: every hold, summed per site as the totals {@code hold-siteX}
 * (nanoseconds) and {@code holds-siteX} (count); and the waiting each site caused,
 * {@code waited-on-siteX}: the time other threads spent waiting for the lock (from the request to the
 * acquisition) during the site's holds. Under saturation each site's share of the waiting is close to
 * its share of the holding; on a busy machine the number of waiters varies, and only the second is exact.
 */
final class SplitHoldScenario implements Scenario {
    private static final String[] SITES = {"siteA", "siteB", "siteC"};
    private final boolean intrinsic;
    private final int threads;
    private final long[] holdMillis;
    private final Object monitor = new Object();
    /** Every acquisition: request, acquired, released (System.nanoTime) and the site; written by its thread only. */
    private final List<long[]> acquisitions = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    private final ReentrantLock lock = new ReentrantLock();

    /** @param args {@code --split P:Q[:R]} and {@code --unit-ms U} (defaults 3:7 and 1) */
    SplitHoldScenario(boolean intrinsic, int threads, List<String> args) {
        this.intrinsic = intrinsic;
        this.threads = threads;
        String split = "3:7";
        long unit = 1;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (i + 1 >= args.size() || !(a.equals("--split") || a.equals("--unit-ms"))) {
                throw new IllegalArgumentException("unknown argument '" + a + "' (known: --split P:Q[:R], --unit-ms U)");
            }
            if (a.equals("--split")) {
                split = args.get(++i);
            } else {
                unit = Long.parseLong(args.get(++i));
            }
        }
        String[] parts = split.split(":");
        if (parts.length < 2 || parts.length > SITES.length || threads < 2 || unit < 1) {
            throw new IllegalArgumentException("--split needs 2 or 3 parts, --threads at least 2, --unit-ms at least 1");
        }
        holdMillis = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            holdMillis[i] = Long.parseLong(parts[i]) * unit;
        }
    }

    @Override
    public void run(double seconds) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        Timeline tl = new Timeline();
        for (int i = 0; i < threads; i++) {
            tl.start("split-" + i, 0, () -> {
                while (!stop.get()) {
                    siteA();
                    siteB();
                    if (holdMillis.length > 2) {
                        siteC();
                    }
                }
            });
        }
        tl.at((long) (seconds * 1000));
        stop.set(true);
        tl.join();
        addWaitedOn();
    }

    // Three methods, not one with a parameter: each is its own owner method in the blame tree.
    private void siteA() throws InterruptedException {
        long requested = System.nanoTime();
        long[] held;
        if (intrinsic) {
            synchronized (monitor) {
                held = hold(0);
            }
        } else {
            lock.lock();
            try {
                held = hold(0);
            } finally {
                lock.unlock();
            }
        }
        record(0, requested, held);
    }

    private void siteB() throws InterruptedException {
        long requested = System.nanoTime();
        long[] held;
        if (intrinsic) {
            synchronized (monitor) {
                held = hold(1);
            }
        } else {
            lock.lock();
            try {
                held = hold(1);
            } finally {
                lock.unlock();
            }
        }
        record(1, requested, held);
    }

    private void siteC() throws InterruptedException {
        long requested = System.nanoTime();
        long[] held;
        if (intrinsic) {
            synchronized (monitor) {
                held = hold(2);
            }
        } else {
            lock.lock();
            try {
                held = hold(2);
            } finally {
                lock.unlock();
            }
        }
        record(2, requested, held);
    }

    /**
     * Holds the lock (a sleep, so waiters really block); returns when it got the lock and when it is about
     * to release it (the bookkeeping is done after the release, so it is not part of the hold).
     */
    private long[] hold(int site) throws InterruptedException {
        long acquired = System.nanoTime();
        Thread.sleep(holdMillis[site]);
        return new long[] {acquired, System.nanoTime()};
    }

    /** Adds one acquisition to the truth: the hold to the site's totals, and the whole acquisition for {@link #addWaitedOn}. */
    private void record(int site, long requested, long[] held) {
        Truth.add("hold-" + SITES[site], held[1] - held[0]);
        Truth.add("holds-" + SITES[site], 1);
        acquisitions.add(new long[] {requested, held[0], held[1], site, Thread.currentThread().getId()});
    }

    /** Per site, the waiting of other threads that overlapped its holds ({@code waited-on-siteX}). */
    private void addWaitedOn() {
        List<long[]> all = new java.util.ArrayList<>(acquisitions);
        all.sort(java.util.Comparator.comparingLong(a -> a[1]));
        long[] bySite = new long[holdMillis.length];
        for (long[] wait : all) {
            for (long[] hold : all) {
                if (hold[1] >= wait[1]) {
                    break; // holds sorted by acquisition: none later overlaps this wait (it ends at wait[1])
                }
                if (hold[4] != wait[4]) {
                    bySite[(int) hold[3]] += Math.max(0, Math.min(wait[1], hold[2]) - Math.max(wait[0], hold[1]));
                }
            }
        }
        for (int i = 0; i < bySite.length; i++) {
            Truth.add("waited-on-" + SITES[i], bySite[i]);
        }
    }
}
