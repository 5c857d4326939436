package dev.lockscope.agent.boot;

import dev.lockscope.core.IdlePlaces;
import dev.lockscope.core.ThreadNames;
import dev.lockscope.core.ParkTally;
import jdk.internal.vm.annotation.DontInline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;

/**
 * The live park-contention record of one blocker object (the J9 park-contention report §3.5). Keyed weakly: the record
 * never keeps the application's blocker alive.
 *
 * <p>Concurrency: the counters are written only by threads that park on this blocker (the same
 * threads that already contend for the lock's own cache line), each with one atomic add or a
 * compare-and-set that rarely retries; nothing is allocated per park. The J9 park-contention report's sums are rebuilt
 * from them when a table or a summary event needs them ({@link ParkHooks#snapshot}):
 * <ul>
 *   <li>times parked: one add per park;</li>
 *   <li>parking thread-time Σ ParkedNow(i−1)·ΔTime = the sum of every park's collected duration:
 *       one add per park end, plus the parks still open, up to the last event (read at snapshot time
 *       from the parked threads' own state);</li>
 *   <li>parking real-time Σ min(ParkedNow(i−1), 1)·ΔTime = the length of the periods with at least
 *       one thread parked: the park that takes ParkedNow from 0 to 1 writes when the period began,
 *       the park end that takes it from 1 to 0 adds the period. Each takes its timestamp after its
 *       atomic step on {@link #parkedNow}, so timestamps follow the counter's order;</li>
 *   <li>peak parked: compare-and-set of a maximum, when it grows; first event time: written once; last event
 *       time: compare-and-set of a maximum at each park end, the open parks' begins added at snapshot time;</li>
 *   <li>the site's real-time, the union over the site's blockers ({@link SiteUnion}): the same 0-to-1 and
 *       1-to-0 transitions of {@link #parkedNow} tell the site, nothing else does.</li>
 * </ul>
 */
public final class BlockerRecord {
    private static final VarHandle PARKS;
    private static final VarHandle PARKED_NOW;
    private static final VarHandle PEAK;
    private static final VarHandle THREAD_TIME;
    private static final VarHandle REAL_TIME;
    private static final VarHandle LAST_TIME;
    private static final VarHandle ON_SITE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PARKS = l.findVarHandle(BlockerRecord.class, "parks", long.class);
            PARKED_NOW = l.findVarHandle(BlockerRecord.class, "parkedNow", int.class);
            PEAK = l.findVarHandle(BlockerRecord.class, "peakParked", int.class);
            THREAD_TIME = l.findVarHandle(BlockerRecord.class, "threadTimeNanos", long.class);
            REAL_TIME = l.findVarHandle(BlockerRecord.class, "realTimeNanos", long.class);
            LAST_TIME = l.findVarHandle(BlockerRecord.class, "lastTime", long.class);
            ON_SITE = l.findVarHandle(BlockerRecord.class, "onSite", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Frames of the first monitored park kept at most (§3.7.2), so a stack's size is bounded. */
    static final int MAX_FIRST_FRAMES = 64;

    final WeakKey key;
    public final String className;
    public final int identityHash;
    final long collectionThreshold;
    /** Set once, by the thread whose park started collection (§3.7.1/§3.7.2); shared ({@link FirstStacks}). */
    volatile String firstThread;
    volatile String[] firstFrames;
    /**
     * Whether the first collected park waited at an idle place ({@link IdlePlaces}): then this blocker's
     * parks are recorded without stacks ({@link IdleParkEvent}) and its unparks not at all. Written once,
     * by {@link #captureFirst}, and read by every park and unpark with no fence of its own: a thread that
     * does not see it yet records a park or unpark in full, which is correct and only dearer. An unparker
     * that finds this record in its target's {@code parkedOn} does see it: the parking thread wrote it
     * before its volatile write of {@code parkedOn}, which the unparker's volatile read follows.
     */
    boolean idleSite;
    /**
     * Whether the blocker is an AQS {@code Condition} ({@code ConditionObject}): a thread parked on it awaits a
     * signal, which the report lists as conditional waiting with the notifying thread, never owner blame (a
     * condition has no owner), so no analysis reads the stack of the unpark that ends such a wait.
     */
    final boolean condition;

    private volatile long parks;
    private volatile int parkedNow;
    private volatile int peakParked;
    private volatile long threadTimeNanos;
    private volatile long realTimeNanos;
    /** Time(1); written once by the park that starts collection, before {@link #collecting} (volatile publication). */
    private volatile long firstTime;
    private volatile boolean collecting;
    /**
     * The latest park end on this blocker. The seed's Time(last event) is the latest park begin or end; a park that
     * has ended began before its end, so the latest of all is this or the begin of a park still open, which a
     * snapshot has from the parked threads' state. So a park begin does not raise it: one compare-and-set per park,
     * not two.
     */
    private volatile long lastTime;
    /**
     * Start of the current period with a thread parked. Written by the park that takes ParkedNow from 0
     * to 1 before its later add on {@link #parkedNow}; read by the park end that takes it from 1 to 0,
     * whose decrement comes after that add in the counter's modification order. Volatile for the
     * snapshot, which reads it from another thread.
     */
    private volatile long busySince;
    /** This blocker's lock site, linked once by the park that starts collection (after {@link #firstFrames}). */
    private volatile SiteUnion site;
    /**
     * 1 while the site counts this blocker as waited for. Set by a 0-to-1 transition of {@link #parkedNow}
     * and cleared by a 1-to-0 one, each by compare-and-set, so the site hears exactly one "free" per
     * "waited for" even when the period ending and the next one beginning race (the next period is then
     * not counted on the site; the union never grows stuck). A period that began before the link is not
     * counted on the site either.
     */
    private volatile int onSite;

    BlockerRecord(Object blocker, long collectionThreshold) {
        this.identityHash = System.identityHashCode(blocker);
        this.key = new WeakKey(blocker, identityHash);
        this.className = blocker.getClass().getName();
        this.condition = className.endsWith("$ConditionObject");
        this.collectionThreshold = collectionThreshold;
    }

    /** A thread parks: counts the park and returns its begin time. */
    long park() {
        long n = (long) PARKS.getAndAdd(this, 1L) + 1;
        int before = (int) PARKED_NOW.getAndAdd(this, 1);
        boolean starts = n == collectionThreshold + 1;
        if (starts) {
            // Before the clock read: the walk is the agent's time, not the park's. Read after it, every
            // blocker's first park counted the walk as waiting (Jetty: 145 first parks, on new semaphores mostly,
            // that returned within 10 us each read 10 us or more, so sampling recorded them for themselves).
            startCollection();
        }
        long now = System.nanoTime(); // after the add: see busySince
        if (before == 0) {
            busySince = now;
        }
        raisePeak(before + 1);
        if (starts) {
            firstTime = now;
            collecting = true; // publishes firstTime, and firstFrames and site before it
        }
        if (before == 0) {
            SiteUnion s = site;
            if (s != null && ON_SITE.compareAndSet(this, 0, 1)) {
                s.objectWaitedFor(now);
            }
        }
        return now;
    }

    /**
     * Once per blocker, so never inlined: inlined, the stack walk and the site's lookup (with the registry's
     * lookup) made the park hook's C2 compile 3 to 6 KB of bytecode on Jetty instead of under 1 KB, paid again at
     * each recompile of the hook (see ParkHooks).
     */
    @DontInline
    private void startCollection() {
        captureFirst();
        site = SiteUnion.of(className, firstFrames);
    }

    /** §3.7.1/§3.7.2: name and stack of the thread whose park started collection; once per blocker. */
    private void captureFirst() {
        StackTraceElement[] stack = new Throwable().getStackTrace();
        String[] frames = new String[Math.min(stack.length, MAX_FIRST_FRAMES)];
        int n = 0;
        for (StackTraceElement e : stack) {
            if (n == 0 && e.getClassName().startsWith("dev.lockscope.agent.boot.")) {
                continue; // our own hook frames sit on top of LockSupport.park
            }
            if (n == frames.length) {
                break;
            }
            frames[n++] = dev.lockscope.core.Frame.format(e);
        }
        // the frames the report's classifier reads from this record's summary, so both say "idle" alike
        idleSite = IdlePlaces.ruleOf(java.util.Arrays.asList(frames).subList(0, n)) != null;
        // once per blocker, not on the per-park path: shared with every other record of the same stack and
        // thread, within the registry's byte bound (none kept when it is full)
        firstFrames = FirstStacks.share(java.util.Arrays.copyOf(frames, n));
        firstThread = FirstStacks.name(ThreadNames.of(Thread.currentThread()));
    }

    /** The park that began at {@code begin} returned; returns the end time. */
    long unpark(long begin) {
        int before = (int) PARKED_NOW.getAndAdd(this, -1);
        long now = System.nanoTime(); // after the add: see busySince
        if (collecting) {
            long from = Math.max(begin, firstTime);
            if (now > from) {
                THREAD_TIME.getAndAdd(this, now - from);
            }
            if (before == 1) {
                long busyFrom = Math.max(busySince, firstTime);
                if (now > busyFrom) {
                    REAL_TIME.getAndAdd(this, now - busyFrom);
                }
            }
        }
        if (before == 1) {
            SiteUnion s = site;
            if (s != null && ON_SITE.compareAndSet(this, 1, 0)) {
                s.objectFree(now);
            }
        }
        raiseLastTime(now);
        return now;
    }

    private void raisePeak(int parked) {
        int peak;
        while (parked > (peak = peakParked) && !PEAK.compareAndSet(this, peak, parked)) {
            Thread.onSpinWait();
        }
    }

    private void raiseLastTime(long now) {
        long last;
        while (now > (last = lastTime) && !LAST_TIME.compareAndSet(this, last, now)) {
            Thread.onSpinWait();
        }
    }

    /**
     * The seed tally now. {@code openBegins} are the begin times of the parks on this blocker still
     * open (from the parked threads' state); they count up to the last event, as the seed's sums do.
     * While threads park and wake the fields are read one by one, so a snapshot of a busy blocker
     * may be off by the events in flight; the table and the summary events built from one snapshot
     * agree exactly all the same.
     */
    /** The seed tally now (see {@link LockSummaries#snapshot} for all blockers at once). */
    public ParkTally tally() {
        long[] open = new long[0];
        for (PerThread pt : PerThread.THREADS.values()) {
            if (pt.parkedOn == this) {
                open = java.util.Arrays.copyOf(open, open.length + 1);
                open[open.length - 1] = pt.parkedSince;
            }
        }
        return snapshot(open);
    }

    ParkTally snapshot(long[] openBegins) {
        boolean on = collecting;
        long last = lastTime;
        for (long begin : openBegins) {
            last = Math.max(last, begin); // see lastTime
        }
        long first = on ? firstTime : 0;
        long thread = threadTimeNanos;
        long real = realTimeNanos;
        int now = Math.max(0, parkedNow);
        if (on) {
            for (long begin : openBegins) {
                long from = Math.max(begin, first);
                if (last > from) {
                    thread += last - from;
                }
            }
            long busyFrom = Math.max(busySince, first);
            if (now > 0 && last > busyFrom) {
                real += last - busyFrom; // the period with a thread parked that is still going on
            }
        }
        return ParkTally.of(collectionThreshold, parks, now, peakParked, thread, real, first, on ? last : 0, on);
    }

    /** This blocker's lock site, or null before its collection started or when the site did not fit. */
    SiteUnion site() {
        return site;
    }

    public String firstThread() {
        String t = firstThread;
        return t == null ? "?" : t;
    }

    /** The first stack itself, shared with other records: for holders that never hand it out. */
    String[] sharedFirstFrames() {
        String[] f = firstFrames;
        return f == null ? new String[0] : f;
    }

    public String[] firstFrames() {
        String[] f = firstFrames;
        return f == null ? new String[0] : f.clone(); // shared with other records: never handed out
    }

    /** Whether the blocker has been garbage-collected. */
    public boolean isDead() {
        return key.get() == null;
    }

    /** Map key: identity of the referent, held weakly. */
    static final class WeakKey extends WeakReference<Object> {
        private final int hash;

        WeakKey(Object referent, int hash) {
            super(referent, BlockerRegistry.COLLECTED); // queued when collected: the registry drops the record
            this.hash = hash;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            Object mine = get();
            if (mine == null) {
                return false; // a dead key equals only itself, so it can still be removed
            }
            if (o instanceof WeakKey) {
                return ((WeakKey) o).get() == mine;
            }
            return o instanceof Lookup && ((Lookup) o).referent == mine;
        }
    }

    /** Short-lived strong key for lookups, so a lookup allocates no WeakReference. */
    static final class Lookup {
        final Object referent;

        Lookup(Object referent) {
            this.referent = referent;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(referent);
        }

        @Override
        public boolean equals(Object o) {
            if (o instanceof WeakKey) {
                return ((WeakKey) o).get() == referent;
            }
            return o instanceof Lookup && ((Lookup) o).referent == referent;
        }
    }
}
