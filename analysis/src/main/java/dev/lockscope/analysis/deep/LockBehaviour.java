package dev.lockscope.analysis.deep;

import dev.lockscope.analysis.model.DeepCounts;
import dev.lockscope.analysis.model.DeepLock;
import dev.lockscope.locks.LockRecommendation;

import java.util.List;

/**
 * The lock-behaviour figures of Kawachiya, <i>Java Locks: Analysis and Acceleration</i>, for the
 * selected code of one run, computed from deep mode's per-object counts.
 *
 * <ul>
 *   <li>Operation counts (Tables 2.1, 2.2): objects locked, acquisitions, and by kind.</li>
 *   <li>Thread locality (Table 5.2): the first repetition of an object is the leading run of its first
 *       locker in the sequence of threads that acquire it; the ratio is Σ first-repetition length /
 *       Σ acquisitions, given with recursive acquisitions counted and without (the dissertation does
 *       not say which).</li>
 *   <li>Objects locked by two or more threads (Table 5.3).</li>
 *   <li>Reservation policies simulated on the run (Table 6.2's hit ratio: acquisitions made outermost
 *       by the thread the lock is reserved for / all acquisitions): <i>reserve until a second thread</i>
 *       (the reservation lock: reserved for the first locker, cancelled for good when another thread
 *       locks it) hits the first locker's outermost acquisitions of its first repetition; <i>reserve
 *       forever</i> (the asymmetric lock: the first locker stays the owner) hits all its outermost ones.</li>
 *   <li>Locked-section durations (Table 4.4): sections, average, longest, sections of 10 ms or more.</li>
 *   <li>nowait/wait groups (Table 4.3's grouping): objects that saw {@code wait}/{@code notify} and those that did not.</li>
 *   <li>Contention transience (Table 4.3): per group, the monitors with at least one fat section (heavily
 *       synchronised), their fat sections per object and the mean lengths of fat and flat sections in
 *       synchronisation operations ({@link DeepLock.Sections}). Monitors only, as in the dissertation:
 *       a {@code java.util.concurrent} lock's waiters are not registered, so its fat sections are not exact.</li>
 * </ul>
 */
public record LockBehaviour(long objectsLocked, long objectsLockedByOthers, long objectsWithWaits, DeepCounts totals,
                            long firstRunAll, long firstRunNonRecursive, long firstLockerNonRecursive,
                            long sectionsOf10msOrMore, List<ContentionGroup> contention) {
    /**
     * One row of Table 4.3: the heavily synchronised monitors of a group ({@code nowait} or {@code wait}),
     * their synchronisation operations, fat and flat sections and the operations in each.
     */
    public record ContentionGroup(String group, long heavyObjects, long fatSections, long flatSections, long fatOps,
                                  long flatOps) {
        public long syncOps() {
            return fatOps + flatOps;
        }

        public double fatSectionsPerObject() {
            return heavyObjects == 0 ? 0 : (double) fatSections / heavyObjects;
        }

        /** Mean fat-section length, in synchronisation operations. */
        public double opsPerFatSection() {
            return fatSections == 0 ? 0 : (double) fatOps / fatSections;
        }

        /** Mean flat-section length, in synchronisation operations. */
        public double opsPerFlatSection() {
            return flatSections == 0 ? 0 : (double) flatOps / flatSections;
        }

        ContentionGroup plus(DeepLock.Sections s) {
            return new ContentionGroup(group, heavyObjects + 1, fatSections + s.fat(), flatSections + s.flat(),
                    fatOps + s.fatOps(), flatOps + s.flatOps());
        }
    }

    /** Histogram buckets of 10 ms and longer ({@code dev.lockscope.core.HoldHistogram}: <10ms is bucket 4). */
    private static final int FIRST_10MS_BUCKET = 5;

    static LockBehaviour of(List<DeepLock> locks) {
        long others = 0, withWaits = 0, runAll = 0, runNonRec = 0, firstLocker = 0;
        ContentionGroup nowait = new ContentionGroup("nowait", 0, 0, 0, 0, 0);
        ContentionGroup wait = new ContentionGroup("wait", 0, 0, 0, 0, 0);
        for (DeepLock l : locks) {
            if ("monitor".equals(l.kind()) && l.sections().fat() > 0) {
                if (l.counts().waits() + l.counts().notifies() > 0) {
                    wait = wait.plus(l.sections());
                } else {
                    nowait = nowait.plus(l.sections());
                }
            }
            if (l.lockedByOthers()) {
                others++;
            }
            if (l.counts().waits() + l.counts().notifies() > 0) {
                withWaits++;
            }
            runAll += l.firstRunAll();
            runNonRec += l.firstRunNonRecursive();
            firstLocker += l.firstLockerNonRecursive();
        }
        DeepCounts totals = DeepAnalysis.sum(locks.stream().map(DeepLock::counts).toList());
        long longSections = 0;
        for (int i = FIRST_10MS_BUCKET; i < totals.holdHistogram().length; i++) {
            longSections += totals.holdHistogram()[i];
        }
        List<ContentionGroup> contention = java.util.stream.Stream.of(nowait, wait).filter(g -> g.heavyObjects() > 0).toList();
        return new LockBehaviour(locks.size(), others, withWaits, totals, runAll, runNonRec, firstLocker, longSections, contention);
    }

    /** Thread locality with recursive acquisitions: first-repetition acquisitions / all acquisitions, in %. */
    public double firstRepetitionPct() {
        return pct(firstRunAll, totals.gets());
    }

    /** The same over outermost acquisitions only. */
    public double firstRepetitionNonRecursivePct() {
        return pct(firstRunNonRecursive, totals.nonRecursive());
    }

    public double lockedByOthersPct() {
        return pct(objectsLockedByOthers, objectsLocked);
    }

    /** Hit ratio of reserving each lock for its first locker until a second thread locks it, in %. */
    public double reserveUntilSecondThreadHitPct() {
        return pct(firstRunNonRecursive, totals.gets());
    }

    /** Hit ratio of reserving each lock for its first locker for good, in %. */
    public double reserveForeverHitPct() {
        return pct(firstLockerNonRecursive, totals.gets());
    }

    private static double pct(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    /** One sentence per figure on what it means for this program. */
    public List<String> sentences() {
        List<String> out = new java.util.ArrayList<>();
        out.add(String.format(java.util.Locale.ROOT,
                "%.1f%% of acquisitions (%.1f%% of outermost ones) fell in their object's first repetition: %s",
                firstRepetitionPct(), firstRepetitionNonRecursivePct(),
                firstRepetitionPct() >= 75 ? "most locking is thread-local, where a lock reserved for its first locker"
                        + " (biased or reservation locking) takes no atomic operation"
                        : "locks change hands often, so reserving them for their first locker would pay off little"));
        out.add(String.format(java.util.Locale.ROOT, "%d of %d objects (%.1f%%) were locked by two or more threads: %s",
                objectsLockedByOthers, objectsLocked, lockedByOthersPct(),
                objectsLockedByOthers == 0 ? "every lock stayed with one thread; its synchronisation only costs, never protects"
                        : "each of those would cancel a reservation once"));
        out.add(String.format(java.util.Locale.ROOT,
                "Reserving each lock for its first locker would serve %.1f%% of acquisitions without an atomic operation "
                        + "until a second thread locks it, %.1f%% if the reservation were never cancelled; the rest pay a CAS or more.",
                reserveUntilSecondThreadHitPct(), reserveForeverHitPct()));
        if (totals.sections() > 0) {
            out.add(String.format(java.util.Locale.ROOT,
                    "%d locked sections, %d of them 10 ms or longer: %s", totals.sections(), sectionsOf10msOrMore,
                    sectionsOf10msOrMore == 0 ? "no section is long enough that a waiter should do more than spin briefly"
                            : "waiters for those must block, not spin"));
        }
        out.add(String.format(java.util.Locale.ROOT, "%d objects used wait/notify (the wait group), %d only locked (nowait group).",
                objectsWithWaits, objectsLocked - objectsWithWaits));
        for (ContentionGroup g : contention) {
            double ratio = g.opsPerFatSection() == 0 ? 0 : g.opsPerFlatSection() / g.opsPerFatSection();
            out.add(String.format(java.util.Locale.ROOT,
                    "%s group: %d monitor%s contended (%,d synchronisation operations), %.2f fat sections each; "
                            + "fat sections %.2f operations long on average, flat ones %.2f (%.1fx): %s",
                    g.group(), g.heavyObjects(), g.heavyObjects() == 1 ? "" : "s", g.syncOps(), g.fatSectionsPerObject(),
                    g.opsPerFatSection(), g.opsPerFlatSection(), ratio,
                    ratio > LockRecommendation.TRANSIENT_FLAT_TO_FAT_RATIO ? "contention is transient, so a lock that returns to its thin form after it"
                            + " (the tasuki lock's deflation) keeps most operations on the fast path"
                            : "contention lasts (locality of contention), so a lock that stays inflated once contended loses little"));
        }
        return out;
    }
}
