package dev.lockscope.agent.boot;

import dev.lockscope.core.HoldHistogram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Deep mode's statistics of one lock object (a monitor, or a {@code java.util.concurrent} lock), keyed
 * weakly: the record never keeps the application's object alive, and outlives it (a collected object's
 * counts still belong to the run's totals).
 *
 * <p>Concurrency: every plain field below is written only by the thread that holds the object's lock
 * at that moment, from {@link #acquired} (just after the acquisition) to {@link #releasing} (just
 * before the release). The lock itself orders those writes (monitor exit/enter and {@code unlock}/
 * {@code lock} are release/acquire pairs), so they need no synchronisation of their own: this is the
 * cheap per-object accounting of Kawachiya's dissertation (probes that run while the object's own lock
 * is held). {@link #owner} is also read by threads that do not hold the lock: to ask "is it me?" (a
 * thread never sees its own id there unless it wrote it and has not cleared it since, because it is
 * the only writer of that value) and, before an outermost attempt, "is it held?" (SLOW). That second
 * read is racy on purpose: no atomic operation on the hot path; a thread arriving in the few
 * nanoseconds between another's acquisition and its write of {@code owner}, or whose entry another thread
 * beats after its check, is caught after its entry instead: {@link #gets} grew meanwhile (DeepHooks).
 * Only one arriving between a holder's clearing of {@code owner} and its release is not counted slow. The one field written outside the lock is {@link #tryFailures}. The
 * summary writer (JFR's periodic thread) reads the plain fields racily; the figures are exact once the
 * threads that lock the object have stopped, as at the end of the run.
 *
 * <p>Hold times: the first {@link #EXACT_SECTIONS} locked sections of an object are all timed; after
 * that one in {@link #SAMPLING_PERIOD}, chosen by a per-object pseudo-random sequence (no aliasing with
 * threads that take turns), each counted {@link #SAMPLING_PERIOD} times in the hold total and the
 * histogram, so both stay unbiased estimates while {@code System.nanoTime} (two per timed section) is
 * read for one section in 16. The longest hold is the longest timed one.
 *
 * <p>Contended releases (monitors): a thread that finds the monitor held counts itself in {@link #waiting}
 * (an atomic add, on the slow path only) until it holds it. While that count is above zero every release
 * writes a {@link DeepReleaseEvent} with the holder's stack, and a hold that begins while it is above zero
 * is timed from its start, so owner blame has every hold that a registered waiter waited through, exactly.
 * A waiter that arrives in the racy window described above is not registered: its wait is covered only
 * when another registered waiter's is (else the blame estimates it as without deep mode).
 */
public final class DeepLockRecord {
    private static final VarHandle TRY_FAILURES;
    private static final VarHandle WAITING;
    /** Sections of an object timed one by one before sampling starts (small programs stay exact). */
    static final int EXACT_SECTIONS = 1024;
    /** One timed section in this many after the first {@link #EXACT_SECTIONS}; a power of two. */
    static final int SAMPLING_PERIOD = 16;
    private static final byte FLAT = 1;
    private static final byte FAT = 2;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TRY_FAILURES = l.findVarHandle(DeepLockRecord.class, "tryFailures", long.class);
            WAITING = l.findVarHandle(DeepLockRecord.class, "waiting", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final BlockerRecord.WeakKey key;
    public final String className;
    public final int identityHash;
    /** A {@code java.util.concurrent} lock (true) or a monitor. */
    public final boolean juc;

    /** {@code tryLock} calls that did not get the lock (no lock held: an atomic add). */
    private volatile long tryFailures;
    /** Monitors: threads that found it held and do not hold it yet (written by them, outside the lock: atomic adds). */
    private volatile int waiting;

    // ---- written only by the holder of the object's lock ----
    Thread owner;
    int depth;
    long gets;
    long nonRecursive;
    long slow;
    /** Slow acquisitions in which the thread really blocked (the JVM's per-thread count rose). */
    long blocked;
    long recursive;
    long waits;
    long notifies;
    /** Locked sections: outermost acquisitions, plus re-acquisitions after a wait (a wait splits a section). */
    long sections;
    /** Sections whose hold was timed; {@link #holdNanos} and the histogram weigh each sampled one. */
    long timedSections;
    long holdNanos;
    long maxHoldNanos;
    final long[] holdHistogram = new long[HoldHistogram.BUCKETS];
    long holdStart;
    /** How many sections the current one stands for in the totals: 1, {@link #SAMPLING_PERIOD}, or 0 (untimed). */
    int holdWeight;
    int holdSite = -1;
    /** The sampling's xorshift state. */
    int sampling;
    /**
     * Kawachiya's fat and flat sections (§4.4, Table 4.3), time counted in synchronisation operations
     * (acquisitions, releases, waits, notifies; recursive ones included): an operation is fat when a
     * thread other than its maker is trying to acquire the lock and does not hold it yet (monitors: the
     * registered slow arrivals of {@link #waiting}; {@code java.util.concurrent} locks: only the slow
     * acquisition itself) or is waiting for a notification on it ({@link #inWait}), else flat. Sections
     * are maximal runs of operations of one kind; {@link #section} is the kind of the latest operation.
     */
    long fatOps;
    long flatOps;
    long fatSections;
    long flatSections;
    byte section;
    /** Threads in {@code wait()} on this monitor: raised before the wait and lowered after it, both holding the monitor. */
    int inWait;
    /** Monitors: {@code System.nanoTime} at the current hold's start when a thread was waiting then, else 0. */
    long contendedSince;
    /** The first thread that locked the object, and the site where it did. */
    long firstLockerTid;
    String firstLockerName;
    int firstSite = -1;
    /** A second thread has locked the object (Kawachiya Table 5.3): the first repetition is over. */
    boolean lockedByOthers;
    /** Acquisitions in the first repetition (the leading run of the first locker), with and without recursive ones. */
    long firstRunAll;
    long firstRunNonRecursive;
    /** Outermost acquisitions by the first locker over the whole run (reserve-forever's hits). */
    long firstLockerNonRecursive;

    DeepLockRecord(Object lock, boolean juc) {
        this.identityHash = System.identityHashCode(lock);
        this.key = new BlockerRecord.WeakKey(lock, identityHash);
        this.className = lock.getClass().getName();
        this.juc = juc;
        this.sampling = identityHash | 1;
    }

    /** Whether another thread than {@code me} holds the lock now (a racy read: see the class comment). */
    boolean heldByAnother(Thread me) {
        Thread o = owner;
        return o != null && o != me;
    }

    /** A thread found the monitor held by another (before its monitorenter; undone by {@link #stoppedWaiting}). */
    void startedWaiting() {
        WAITING.getAndAdd(this, 1);
    }

    /** The thread counted by {@link #startedWaiting} holds the monitor now. */
    void stoppedWaiting() {
        WAITING.getAndAdd(this, -1);
    }

    /**
     * Whether another thread is trying to acquire the lock or waits for a notification on it, read by the
     * holder. {@link #waiting} excludes the holder itself: it leaves it before its acquisition counts.
     */
    boolean othersContend() {
        return waiting > 0 || inWait > 0;
    }

    /** Counts one synchronisation operation, made by the holder, in a fat or a flat section. */
    void syncOp(boolean fat) {
        byte kind = fat ? FAT : FLAT;
        if (fat) {
            fatOps++;
        } else {
            flatOps++;
        }
        if (kind != section) {
            section = kind;
            if (fat) {
                fatSections++;
            } else {
                flatSections++;
            }
        }
    }

    void tryFailed() {
        TRY_FAILURES.getAndAdd(this, 1L);
    }

    /** Just after {@code me} acquired the lock, holding it. */
    void acquired(Thread me, boolean isRecursive, boolean wasSlow, boolean wasBlocked, int site, DeepSites.ThreadTable sites) {
        gets++;
        syncOp(wasSlow || othersContend()); // a slow acquisition ends its maker's contention: fat
        if (isRecursive) {
            recursive++;
            depth++;
        } else {
            nonRecursive++;
            if (wasSlow) {
                slow++;
                if (wasBlocked) {
                    blocked++;
                }
            }
            owner = me;
            depth = 1;
            startSection(site);
        }
        if (gets == 1) {
            firstLockerTid = me.getId();
            firstLockerName = me.getName();
            firstSite = site;
        } else if (!lockedByOthers && me.getId() != firstLockerTid) {
            lockedByOthers = true;
        }
        if (!lockedByOthers) {
            firstRunAll++;
            if (!isRecursive) {
                firstRunNonRecursive++;
            }
        }
        if (!isRecursive && me.getId() == firstLockerTid) {
            firstLockerNonRecursive++;
        }
        DeepSites.acquired(sites, site, isRecursive, wasSlow, wasBlocked);
    }

    /** Just before {@code me} releases the lock once, holding it; true when the release is the outermost one. */
    boolean releasing(DeepSites.ThreadTable sites) {
        syncOp(othersContend());
        if (depth > 1) {
            depth--;
            return false;
        }
        endSection(sites);
        owner = null;
        depth = 0;
        return true;
    }

    void startSection(int site) {
        holdSite = site;
        if (sections < EXACT_SECTIONS) {
            holdWeight = 1;
        } else {
            int x = sampling; // xorshift32
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            sampling = x;
            holdWeight = (x & (SAMPLING_PERIOD - 1)) == 0 ? SAMPLING_PERIOD : 0;
        }
        if (holdWeight > 0) {
            holdStart = System.nanoTime();
        }
        if (!juc) {
            // the volatile read sees every waiter registered before this acquisition (its atomic add)
            contendedSince = waiting == 0 ? 0 : holdWeight > 0 ? holdStart : System.nanoTime();
        }
    }

    void endSection(DeepSites.ThreadTable sites) {
        if (!juc && waiting > 0) {
            releasedContended();
        }
        sections++;
        int weight = holdWeight;
        if (weight == 0) {
            DeepSites.held(sites, holdSite, 0, 0);
            return;
        }
        long held = Math.max(0, System.nanoTime() - holdStart);
        timedSections++;
        holdNanos += held * weight;
        if (held > maxHoldNanos) {
            maxHoldNanos = held;
        }
        holdHistogram[HoldHistogram.bucket(held)] += weight;
        DeepSites.held(sites, holdSite, held, weight);
    }

    /** Writes the release that a waiting thread waits for, with this (the holding) thread's stack. */
    private void releasedContended() {
        DeepReleaseEvent e = new DeepReleaseEvent();
        if (e.isEnabled()) {
            e.lockClass = className;
            e.lockHash = identityHash;
            e.heldNanos = contendedSince == 0 ? -1 : Math.max(0, System.nanoTime() - contendedSince);
            e.commit();
        }
    }

    /**
     * The counts now, racily read unless the lock's users have stopped: gets, non-recursive, slow,
     * recursive, waits, notifies, sections, try failures, blocked, timed sections (in this order).
     */
    public long[] counts() {
        return new long[]{gets, nonRecursive, slow, recursive, waits, notifies, sections, tryFailures, blocked, timedSections};
    }

    long tryFailures() {
        return tryFailures;
    }

    public boolean isDead() {
        return key.get() == null;
    }
}
