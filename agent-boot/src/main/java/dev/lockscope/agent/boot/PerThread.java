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
                sweepDeadThreads(); // bounded even if no table or chunk end comes for a long time
            }
            return pt;
        }
    };

    private static final VarHandle HANDOFF;

    static {
        try {
            HANDOFF = MethodHandles.lookup().findVarHandle(PerThread.class, "handoff", long.class);
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

    /** Drops the state of threads that have ended. */
    static void sweepDeadThreads() {
        for (Thread t : THREADS.keySet()) {
            if (!t.isAlive() && t != Thread.currentThread()) {
                THREADS.remove(t);
            }
        }
    }
}
