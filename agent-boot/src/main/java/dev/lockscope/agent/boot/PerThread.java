package dev.lockscope.agent.boot;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-thread state: the re-entry guard, the event objects the hooks fill and commit (reused: a
 * JFR event is a plain object, and begin/end/commit are called on every use), the park in
 * progress, and the hand-off counter that unparkers of this thread increment.
 */
final class PerThread {
    final Thread thread;
    boolean inHook;
    /** A free park token of this thread, or null while it is in use (parks of a thread never nest). */
    ParkHooks.Token parkToken;
    UnparkEvent unpark;
    ConditionUnparkEvent conditionUnpark;
    BlockerRecord lastRecord;
    BlockerRecord otherRecord;
    /** The blocker records of the last two unparks this thread recorded with a stack ("owner call site seen"). */
    BlockerRecord lastUnparkRecorded;
    BlockerRecord otherUnparkRecorded;
    /**
     * Unparks of this thread so far. Incremented (atomic add) by an unparker before it calls the
     * real unpark; read by this thread before it parks and after it wakes. If that unpark woke the
     * park, the read after waking sees the increment: the JVM's Parker hands the permit over
     * through a mutex (unpark unlocks it after setting the permit, park locks it before returning),
     * which orders the unparker's add before this thread's read.
     */
    volatile long handoff;
    /**
     * The record of the blocker this thread is parked on now, or null; with {@link #parkedSince},
     * read by unparkers (whether to walk their stack) and by table snapshots (parks still open).
     * parkedSince is written before parkedOn, which publishes it.
     */
    volatile BlockerRecord parkedOn;
    volatile long parkedSince;
    /**
     * Whether a short park of this thread is recorded, as decided by the thread that unparked it (so
     * that the releaser walks its own stack exactly for the parks that will be recorded): the low 31
     * bits of that unpark's hand-off number in the high word, and in the low word 0 (not recorded) or
     * 1 + the time the target had been parked when the unparker drew (the probability's numerator).
     * One word, so the woken thread reads a number and its decision together; written before the
     * real unpark, so like {@link #handoff} it is visible to the park it woke (see there). A stale
     * value carries another hand-off number and is ignored.
     */
    volatile long sampleDecision;
    /**
     * Unparks of a thread waiting for a lock (not a Condition, not at an idle place) that this thread made
     * without recording them (their parks not sampled). Written and read by this thread only. Its events
     * carry it, so that a hold measured from this thread's hand-off in to its next recorded hand-off out is
     * known to be one hold only when no unrecorded hand-off out came between.
     */
    long unrecordedUnparks;
    /** The second of {@link StackBudget} this thread's unspent grants belong to, and how many are left; this thread's only. */
    long budgetSecond = -1;
    long budgetGrants;
    /**
     * Events the stack budget refused this thread ({@link StackBudget}): park events, the waiting they stood for, and
     * unpark events. Written by this thread only (opaque: never torn), read by the writer of summaries.
     */
    private volatile long parksDropped;
    private volatile long parkNanosDropped;
    private volatile long unparksDropped;
    /** The what-if experiment's releases this thread delayed and the time they waited ({@link ReleaseDelay}); opaque. */
    private volatile long releasesDelayed;
    private volatile long releaseNanosDelayed;
    /** This thread's own random sequence (splitmix64), for its sampling draws: no shared state. */
    private long randomState;

    PerThread(Thread thread) {
        this.thread = thread;
        this.randomState = System.nanoTime() ^ (thread.getId() * 0x9E3779B97F4A7C15L);
    }

    /** A uniform draw in [0, bound), bound > 0; called by this PerThread's own thread only. */
    long nextBelow(long bound) {
        long z = (randomState += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return ((z ^ (z >>> 31)) >>> 1) % bound;
    }

    /** Every thread's state, for unparkers and table snapshots. Dead threads are removed by {@link #sweepDeadThreads}. */
    static final ConcurrentHashMap<Thread, PerThread> THREADS = new ConcurrentHashMap<>();

    private static final ThreadLocal<PerThread> CURRENT = new ThreadLocal<PerThread>() {
        @Override
        protected PerThread initialValue() {
            Thread t = Thread.currentThread();
            PerThread pt = new PerThread(t);
            THREADS.put(t, pt);
            if ((THREADS.size() & 1023) == 0) {
                trySweepDeadThreads(); // bounded even if no table or chunk end comes for a long time
            }
            return pt;
        }
    };

    private static final VarHandle HANDOFF;
    private static final VarHandle PARKS_DROPPED;
    private static final VarHandle PARK_NANOS_DROPPED;
    private static final VarHandle UNPARKS_DROPPED;
    private static final VarHandle RELEASES_DELAYED;
    private static final VarHandle RELEASE_NANOS_DELAYED;
    /**
     * The counts of threads that have ended ({@link #sweepDeadThreads}): the stack budget's refused parks, their
     * waiting and unparks, then the releases delayed and their time.
     */
    private static final java.util.concurrent.atomic.AtomicLongArray ENDED = new java.util.concurrent.atomic.AtomicLongArray(5);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HANDOFF = l.findVarHandle(PerThread.class, "handoff", long.class);
            PARKS_DROPPED = l.findVarHandle(PerThread.class, "parksDropped", long.class);
            PARK_NANOS_DROPPED = l.findVarHandle(PerThread.class, "parkNanosDropped", long.class);
            UNPARKS_DROPPED = l.findVarHandle(PerThread.class, "unparksDropped", long.class);
            RELEASES_DELAYED = l.findVarHandle(PerThread.class, "releasesDelayed", long.class);
            RELEASE_NANOS_DELAYED = l.findVarHandle(PerThread.class, "releaseNanosDelayed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The calling thread's state, made on its first park or unpark. */
    static PerThread current() {
        return CURRENT.get();
    }

    /** Counts one more unpark of this thread (an atomic add; see {@link #handoff}) and returns its number. */
    long countHandoff() {
        return (long) HANDOFF.getAndAdd(this, 1L) + 1;
    }

    /**
     * A park event the stack budget refused, standing for {@code nanos} of waiting. Opaque writes: the thread's own
     * field, so no atomic add is needed, and no fence either (the reader wants a recent value, not an ordering).
     */
    void parkDropped(long nanos) {
        PARKS_DROPPED.setOpaque(this, parksDropped + 1);
        PARK_NANOS_DROPPED.setOpaque(this, parkNanosDropped + nanos);
    }

    /** An unpark event the stack budget refused. */
    void unparkDropped() {
        UNPARKS_DROPPED.setOpaque(this, unparksDropped + 1);
    }

    /** A release the what-if experiment delayed by {@code nanos}: this thread's own counts, no atomic add (opaque). */
    void releaseDelayed(long nanos) {
        RELEASES_DELAYED.setOpaque(this, releasesDelayed + 1);
        RELEASE_NANOS_DELAYED.setOpaque(this, releaseNanosDelayed + nanos);
    }

    /** The events the stack budget refused so far, every thread's, ended ones included: parks, their waiting, unparks. */
    static long[] droppedByBudget() {
        long[] all = totals();
        return new long[] {all[0], all[1], all[2]};
    }

    /** The releases the what-if experiment delayed so far, every thread's, and the time they waited. */
    static long[] releasesDelayed() {
        long[] all = totals();
        return new long[] {all[3], all[4]};
    }

    /**
     * Held while a sweep moves ended threads' counts into {@link #ENDED} and while {@link #totals} sums them: between a
     * thread's removal from {@link #THREADS} and the add of its counts, a sum would miss them (the what-if delay's
     * count read 0 at exit, racing the recording's final snapshot in another shutdown hook). Never taken by a hook
     * except with {@code tryLock}, which does not wait.
     */
    private static final java.util.concurrent.locks.ReentrantLock FOLD = new java.util.concurrent.locks.ReentrantLock();

    /** Every thread's counts summed, ended ones included, in {@link #ENDED}'s order. */
    private static long[] totals() {
        FOLD.lock();
        try {
            return totalsHoldingFold();
        } finally {
            FOLD.unlock();
        }
    }

    private static long[] totalsHoldingFold() {
        long[] sum = new long[ENDED.length()];
        for (int i = 0; i < sum.length; i++) {
            sum[i] = ENDED.get(i);
        }
        for (PerThread pt : THREADS.values()) {
            sum[0] += (long) PARKS_DROPPED.getOpaque(pt);
            sum[1] += (long) PARK_NANOS_DROPPED.getOpaque(pt);
            sum[2] += (long) UNPARKS_DROPPED.getOpaque(pt);
            sum[3] += (long) RELEASES_DELAYED.getOpaque(pt);
            sum[4] += (long) RELEASE_NANOS_DELAYED.getOpaque(pt);
        }
        return sum;
    }

    /** Drops the state of threads that have ended, keeping their counts. */
    static void sweepDeadThreads() {
        FOLD.lock();
        try {
            sweepHoldingFold();
        } finally {
            FOLD.unlock();
        }
    }

    /** {@link #sweepDeadThreads} unless a sweep or a sum runs now (from a hook: it does not wait for them). */
    private static void trySweepDeadThreads() {
        if (FOLD.tryLock()) {
            try {
                sweepHoldingFold();
            } finally {
                FOLD.unlock();
            }
        }
    }

    private static void sweepHoldingFold() {
        for (java.util.Map.Entry<Thread, PerThread> e : THREADS.entrySet()) {
            Thread t = e.getKey();
            PerThread pt = e.getValue();
            // removed by one sweep only, so each ended thread's counts are kept once
            if (!t.isAlive() && t != Thread.currentThread() && THREADS.remove(t, pt)) {
                ENDED.addAndGet(0, pt.parksDropped);
                ENDED.addAndGet(1, pt.parkNanosDropped);
                ENDED.addAndGet(2, pt.unparksDropped);
                ENDED.addAndGet(3, pt.releasesDelayed);
                ENDED.addAndGet(4, pt.releaseNanosDelayed);
            }
        }
    }
}
