package dev.lockscope.analysis.deep;

import dev.lockscope.analysis.model.DeepCounts;
import dev.lockscope.analysis.model.DeepInfo;
import dev.lockscope.analysis.model.DeepLock;
import dev.lockscope.analysis.model.DeepSite;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.core.HoldHistogram;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Deep mode's results from a recording made with {@code record --deep}: the latest totals of every lock
 * object and site the agent wrote (each chunk end repeats them, so the last is the run's), and the
 * lock-behaviour figures computed from them. Bounded by the agent's own record limit (one entry per
 * lock object and per site). Null result when the recording has no deep-mode events.
 */
public final class DeepAnalysis implements RecordingVisitor {
    /** Lock objects are told apart by class and identity hash, as the agent keys them. */
    private record LockKey(String lockClass, int hash, String kind) {
    }

    private final Map<LockKey, DeepLock> locks = new HashMap<>();
    private final Map<String, DeepSite> sites = new HashMap<>();
    private DeepInfo info;
    private DeepResult result;

    @Override
    public void deepLock(DeepLock l) {
        locks.merge(new LockKey(l.lockClass(), l.lockHash(), l.kind()), l, DeepAnalysis::later);
    }

    @Override
    public void deepSite(DeepSite s) {
        sites.merge(s.site() + "\u0000" + s.kind(), s, (a, b) -> b.timeNanos() >= a.timeNanos() ? b : a);
    }

    @Override
    public void deepInfo(DeepInfo i) {
        if (info == null || i.timeNanos() >= info.timeNanos()) {
            info = i;
        }
    }

    private static DeepLock later(DeepLock a, DeepLock b) {
        return b.timeNanos() >= a.timeNanos() ? b : a;
    }

    @Override
    public void finish(RecordingInfo recording) {
        if (info == null && locks.isEmpty() && sites.isEmpty()) {
            return;
        }
        Comparator<DeepCounts> bySlowThenGets = Comparator.comparingLong(DeepCounts::slow).reversed()
                .thenComparing(Comparator.comparingLong(DeepCounts::holdNanos).reversed())
                .thenComparing(Comparator.comparingLong(DeepCounts::gets).reversed());
        List<DeepLock> lockRows = new ArrayList<>(locks.values());
        lockRows.sort(Comparator.comparing(DeepLock::counts, bySlowThenGets).thenComparing(DeepLock::lockClass)
                .thenComparingInt(DeepLock::lockHash));
        List<DeepSite> siteRows = new ArrayList<>(sites.values());
        siteRows.sort(Comparator.comparing(DeepSite::counts, bySlowThenGets).thenComparing(DeepSite::site)
                .thenComparing(DeepSite::kind));
        result = new DeepResult(info, recording.durationNanos(), lockRows, siteRows, LockBehaviour.of(lockRows),
                LibraryLockAdvice.of(lockRows));
    }

    /** The result, or null when the recording has no deep-mode events. */
    public DeepResult result() {
        return result;
    }

    /** Sums counts (the totals row). */
    public static DeepCounts sum(List<DeepCounts> all) {
        long gets = 0, nonRec = 0, slow = 0, rec = 0, tries = 0, waits = 0, notifies = 0, sections = 0, hold = 0, max = 0;
        long blocked = 0, timed = 0;
        long[] histogram = new long[HoldHistogram.BUCKETS];
        for (DeepCounts c : all) {
            gets += c.gets();
            nonRec += c.nonRecursive();
            slow += c.slow();
            rec += c.recursive();
            tries += c.tryFailures();
            waits += c.waits();
            notifies += c.notifies();
            sections += c.sections();
            hold += c.holdNanos();
            max = Math.max(max, c.maxHoldNanos());
            blocked += c.blocked();
            timed += c.timedSections();
            for (int i = 0; i < histogram.length && i < c.holdHistogram().length; i++) {
                histogram[i] += c.holdHistogram()[i];
            }
        }
        return new DeepCounts(gets, nonRec, slow, rec, tries, waits, notifies, sections, hold, max, histogram, blocked, timed);
    }
}
