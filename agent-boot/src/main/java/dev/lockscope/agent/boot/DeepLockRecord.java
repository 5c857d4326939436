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
 * is held). {@link #owner} is also read by threads that do not hold the lock, only to ask "is it me?":
 * a thread never sees its own id there unless it wrote it and has not cleared it since, because it is
 * the only writer of that value. The one field written outside the lock is {@link #contenders} (an
 * atomic add before the acquisition and after the release). The summary writer (JFR's periodic
 * thread) reads the plain fields racily; the figures are exact once the threads that lock the object
 * have stopped, as at the end of the run.
 */
public final class DeepLockRecord {
    private static final VarHandle CONTENDERS;
    private static final VarHandle TRY_FAILURES;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CONTENDERS = l.findVarHandle(DeepLockRecord.class, "contenders", int.class);
            TRY_FAILURES = l.findVarHandle(DeepLockRecord.class, "tryFailures", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final BlockerRecord.WeakKey key;
    public final String className;
    public final int identityHash;
    /** A {@code java.util.concurrent} lock (true) or a monitor. */
    public final boolean juc;

    /** Threads holding the lock or between the probe before the acquisition and the acquisition itself. */
    private volatile int contenders;
    /** {@code tryLock} calls that did not get the lock (no lock held: an atomic add). */
    private volatile long tryFailures;

    // ---- written only by the holder of the object's lock ----
    Thread owner;
    int depth;
    long gets;
    long nonRecursive;
    long slow;
    long recursive;
    long waits;
    long notifies;
    /** Locked sections: outermost acquisitions, plus re-acquisitions after a wait (a wait splits a section). */
    long sections;
    long holdNanos;
    long maxHoldNanos;
    final long[] holdHistogram = new long[HoldHistogram.BUCKETS];
    long holdStart;
    int holdSite = -1;
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
    }

    /** Before an acquisition attempt that is not recursive: whether another thread holds or is taking the lock. */
    boolean arrive() {
        return (int) CONTENDERS.getAndAdd(this, 1) > 0;
    }

    /** After a release, or an attempt that did not acquire. */
    void leave() {
        CONTENDERS.getAndAdd(this, -1);
    }

    void tryFailed() {
        TRY_FAILURES.getAndAdd(this, 1L);
    }

    /** Just after {@code me} acquired the lock, holding it. */
    void acquired(Thread me, boolean isRecursive, boolean wasSlow, int site, DeepSites.ThreadTable sites) {
        gets++;
        if (isRecursive) {
            recursive++;
            depth++;
        } else {
            nonRecursive++;
            if (wasSlow) {
                slow++;
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
        DeepSites.acquired(sites, site, isRecursive, wasSlow);
    }

    /** Just before {@code me} releases the lock once, holding it; true when the release is the outermost one. */
    boolean releasing(DeepSites.ThreadTable sites) {
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
        holdStart = System.nanoTime();
    }

    void endSection(DeepSites.ThreadTable sites) {
        long held = Math.max(0, System.nanoTime() - holdStart);
        sections++;
        holdNanos += held;
        if (held > maxHoldNanos) {
            maxHoldNanos = held;
        }
        holdHistogram[HoldHistogram.bucket(held)]++;
        DeepSites.held(sites, holdSite, held);
    }

    /**
     * The counts now, racily read unless the lock's users have stopped: gets, non-recursive, slow,
     * recursive, waits, notifies, sections, try failures (in this order).
     */
    public long[] counts() {
        return new long[]{gets, nonRecursive, slow, recursive, waits, notifies, sections, tryFailures};
    }

    long tryFailures() {
        return tryFailures;
    }

    public boolean isDead() {
        return key.get() == null;
    }
}
