package dev.lockscope.agent.boot;

import dev.lockscope.core.HoldHistogram;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The instrumented lock sites of deep mode (a {@code monitorenter}, a {@code synchronized} method, a
 * {@code Lock.lock} call, a {@code wait}/{@code notify} call) and their statistics, summed over every
 * object locked there.
 *
 * <p>The transformer registers a site before the class that contains it can run ({@link #register},
 * under this class's lock, never on an application's locking path); the hooks pass the site's number.
 * Sites are shared by all threads that run the code, so their counters are atomic adds (one
 * {@link AtomicLongArray} slot per statistic). The table of sites is replaced, never changed in place,
 * when it grows: a hook reads the volatile reference and finds every site registered before its class ran.
 * At most {@link #MAX_SITES} sites: further ones get number -1 and count only in their lock's record.
 */
public final class DeepSites {
    public static final int MAX_SITES = 65_536;

    /** One site: where it is, what it does, and its counters. */
    public static final class Site {
        public final String where;
        public final String kind;
        // gets, nonRecursive, slow, recursive, waits, notifies, tryFailures, sections, holdNanos, maxHold, histogram...
        final AtomicLongArray counts = new AtomicLongArray(10 + HoldHistogram.BUCKETS);

        Site(String where, String kind) {
            this.where = where;
            this.kind = kind;
        }

        public long count(int index) {
            return counts.get(index);
        }

        public long[] holdHistogram() {
            long[] h = new long[HoldHistogram.BUCKETS];
            for (int i = 0; i < h.length; i++) {
                h[i] = counts.get(HISTOGRAM + i);
            }
            return h;
        }
    }

    public static final int GETS = 0;
    public static final int NON_RECURSIVE = 1;
    public static final int SLOW = 2;
    public static final int RECURSIVE = 3;
    public static final int WAITS = 4;
    public static final int NOTIFIES = 5;
    public static final int TRY_FAILURES = 6;
    public static final int SECTIONS = 7;
    public static final int HOLD_NANOS = 8;
    public static final int MAX_HOLD_NANOS = 9;
    static final int HISTOGRAM = 10;

    private static volatile Site[] sites = new Site[0];
    private static int count;

    private DeepSites() {
    }

    /** A new site's number, or -1 when the table is full. Called by the transformer only. */
    public static synchronized int register(String where, String kind) {
        if (count >= MAX_SITES) {
            return -1;
        }
        Site[] now = sites;
        if (count == now.length) {
            Site[] grown = java.util.Arrays.copyOf(now, Math.max(64, now.length * 2));
            grown[count] = new Site(where, kind);
            sites = grown; // volatile write publishes the new site with the table
        } else {
            now[count] = new Site(where, kind);
            sites = now; // republish: the volatile write orders the slot's write before hooks read it
        }
        return count++;
    }

    /** Every registered site. */
    public static Site[] all() {
        Site[] now = sites;
        int n = 0;
        while (n < now.length && now[n] != null) {
            n++;
        }
        return java.util.Arrays.copyOf(now, n);
    }

    static Site site(int id) {
        Site[] now = sites;
        return id >= 0 && id < now.length ? now[id] : null;
    }

    static void add(int id, int index) {
        Site s = site(id);
        if (s != null) {
            s.counts.getAndIncrement(index);
        }
    }

    static void acquired(int id, boolean recursive, boolean slow) {
        Site s = site(id);
        if (s == null) {
            return;
        }
        s.counts.getAndIncrement(GETS);
        if (recursive) {
            s.counts.getAndIncrement(RECURSIVE);
        } else {
            s.counts.getAndIncrement(NON_RECURSIVE);
            if (slow) {
                s.counts.getAndIncrement(SLOW);
            }
        }
    }

    static void held(int id, long nanos) {
        Site s = site(id);
        if (s == null) {
            return;
        }
        s.counts.getAndIncrement(SECTIONS);
        s.counts.getAndAdd(HOLD_NANOS, nanos);
        s.counts.getAndIncrement(HISTOGRAM + HoldHistogram.bucket(nanos));
        long max;
        while (nanos > (max = s.counts.get(MAX_HOLD_NANOS)) && !s.counts.compareAndSet(MAX_HOLD_NANOS, max, nanos)) {
            // another hold raised the maximum meanwhile: compare again
        }
    }
}
