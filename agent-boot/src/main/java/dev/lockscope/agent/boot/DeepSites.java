package dev.lockscope.agent.boot;

import dev.lockscope.core.HoldHistogram;

import java.util.Arrays;

/**
 * The instrumented lock sites of deep mode (a {@code monitorenter}, a {@code synchronized} method, a
 * {@code Lock.lock} call, a {@code wait}/{@code notify} call) and their statistics, summed over every
 * object locked there.
 *
 * <p>The transformer registers a site before the class that contains it can run ({@link #register},
 * under this class's lock, never on an application's locking path); the hooks pass the site's number.
 * One site locks many objects from many threads, so its counters are kept per thread ({@link ThreadTable},
 * plain writes by that thread only: no atomic operation and no shared cache line on the hot path) and
 * summed when the summaries are written, racily while the threads run, exactly once they have stopped.
 * Tables of threads that have ended are folded into one table then, so memory is bounded by the live
 * threads times the sites each used. At most {@link #MAX_SITES} sites: further ones get number -1 and
 * count only in their lock's record.
 */
public final class DeepSites {
    public static final int MAX_SITES = 65_536;

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
    public static final int BLOCKED = 10;
    public static final int TIMED_SECTIONS = 11;
    static final int HISTOGRAM = 12;
    private static final int SIZE = HISTOGRAM + HoldHistogram.BUCKETS;

    /** One site: where it is and what it does. */
    public static final class Site {
        public final String where;
        public final String kind;
        final int id;

        Site(String where, String kind, int id) {
            this.where = where;
            this.kind = kind;
            this.id = id;
        }
    }

    /** One thread's counters of every site it used; written by that thread only. */
    static final class ThreadTable {
        final Thread thread;
        /** Indexed by site; replaced (volatile) when it grows, so the summary writer sees every row. */
        volatile long[][] bySite = new long[64][];

        ThreadTable(Thread thread) {
            this.thread = thread;
        }
    }

    private static final java.util.concurrent.ConcurrentLinkedQueue<ThreadTable> TABLES = new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** A new table of the current thread (its DeepHooks state holds it), counted in the totals. */
    static ThreadTable newTable() {
        ThreadTable t = new ThreadTable(Thread.currentThread());
        TABLES.add(t);
        return t;
    }
    /** The sums of the tables of threads that have ended (summary writer only, under this class's lock). */
    private static long[][] retired = new long[0][];

    private static volatile Site[] sites = new Site[0];
    private static int count;

    private DeepSites() {
    }

    /** A new site's number, or -1 when the table is full. Called by the transformer only. */
    public static synchronized int register(String where, String kind) {
        if (count >= MAX_SITES) {
            return -1;
        }
        Site[] grown = Arrays.copyOf(sites, count + 1);
        grown[count] = new Site(where, kind, count);
        sites = grown; // volatile write publishes the new site with the table
        return count++;
    }

    /** Every registered site. */
    public static Site[] all() {
        return sites;
    }

    static Site site(int id) {
        Site[] now = sites;
        return id >= 0 && id < now.length ? now[id] : null;
    }

    /** This thread's counters of one site, or null for no site. */
    private static long[] mine(ThreadTable t, int id) {
        if (t == null || id < 0 || id >= MAX_SITES) {
            return null;
        }
        long[][] rows = t.bySite;
        if (id >= rows.length) {
            rows = Arrays.copyOf(rows, Math.max(id + 1, rows.length * 2));
            t.bySite = rows;
        }
        long[] row = rows[id];
        if (row == null) {
            row = new long[SIZE];
            rows[id] = row;
        }
        return row;
    }

    static void add(ThreadTable t, int id, int index) {
        long[] row = mine(t, id);
        if (row != null) {
            row[index]++;
        }
    }

    static void acquired(ThreadTable t, int id, boolean recursive, boolean slow, boolean blocked) {
        long[] row = mine(t, id);
        if (row == null) {
            return;
        }
        row[GETS]++;
        if (recursive) {
            row[RECURSIVE]++;
        } else {
            row[NON_RECURSIVE]++;
            if (slow) {
                row[SLOW]++;
                if (blocked) {
                    row[BLOCKED]++;
                }
            }
        }
    }

    /** A locked section ended; {@code weight} 0 when it was not timed, else how many sections its hold stands for. */
    static void held(ThreadTable t, int id, long nanos, int weight) {
        long[] row = mine(t, id);
        if (row == null) {
            return;
        }
        row[SECTIONS]++;
        if (weight == 0) {
            return;
        }
        row[TIMED_SECTIONS]++;
        row[HOLD_NANOS] += nanos * weight;
        row[HISTOGRAM + HoldHistogram.bucket(nanos)] += weight;
        if (nanos > row[MAX_HOLD_NANOS]) {
            row[MAX_HOLD_NANOS] = nanos;
        }
    }

    /**
     * Every site's counters summed over all threads, indexed by site then by {@link #GETS} ...
     * {@link #TIMED_SECTIONS}, then the hold histogram from index {@link #HISTOGRAM}. Folds the tables of ended threads first.
     */
    public static synchronized long[][] totals() {
        int n = sites.length;
        if (retired.length < n) {
            retired = Arrays.copyOf(retired, n);
        }
        long[][] out = new long[n][];
        for (int i = 0; i < n; i++) {
            out[i] = retired[i] == null ? new long[SIZE] : retired[i].clone();
        }
        for (java.util.Iterator<ThreadTable> it = TABLES.iterator(); it.hasNext(); ) {
            ThreadTable t = it.next();
            boolean ended = !t.thread.isAlive(); // its writes happen-before this: Thread.isAlive returning false
            long[][] rows = t.bySite;
            for (int i = 0; i < Math.min(n, rows.length); i++) {
                if (rows[i] == null) {
                    continue;
                }
                fold(out[i], rows[i]);
                if (ended) {
                    if (retired[i] == null) {
                        retired[i] = new long[SIZE];
                    }
                    fold(retired[i], rows[i]);
                }
            }
            if (ended) {
                it.remove();
            }
        }
        return out;
    }

    private static void fold(long[] into, long[] row) {
        for (int k = 0; k < SIZE; k++) {
            into[k] = k == MAX_HOLD_NANOS ? Math.max(into[k], row[k]) : into[k] + row[k];
        }
    }

    /** The hold histogram of a row of {@link #totals}. */
    public static long[] holdHistogram(long[] row) {
        return Arrays.copyOfRange(row, HISTOGRAM, HISTOGRAM + HoldHistogram.BUCKETS);
    }
}
