package dev.lockscope.analysis;

import dev.lockscope.analysis.blame.BlameResult;
import dev.lockscope.analysis.blame.HandoffHold;
import dev.lockscope.analysis.blame.Contention;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.blame.WaitRecord;
import dev.lockscope.analysis.model.StackBudget;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockTable;
import dev.lockscope.core.LockSites;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The park-contention result of one recording (or of several merged, {@link #merge}): what the text
 * and JSON reports render.
 *
 * @param source              the recording file (the first one of a merge)
 * @param startNanos          first event of the recording, nanoseconds since the epoch
 * @param durationNanos       the recording's length, used as TotalExecutionTime (the J9 park-contention report §3.7.12); of
 *                            a merge, the sum of the recordings' lengths
 * @param locks               lock objects (park blockers and contended monitors) at or above the print
 *                            threshold, ranked by {@link dev.lockscope.core.LockTable#RANKING}
 * @param belowPrintThreshold how many collected rows (sites, or objects with {@code byInstance}) the
 *                            print threshold left out
 * @param sites               the lock sites ({@link LockSites}: every collected object grouped by kind,
 *                            class and acquiring site) at or above the print threshold, ranked alike
 * @param siteOfLock          each collected object (its {@link LockId}: kind, class and hash or address), and each
 *                            blocker counted only in its site's sum of blockers the GC collected, to its site's identity
 *                            ({@code at Frame.method:line}); how blame rows are grouped by site
 * @param parts               the results merged into this one, one per recording; empty for one recording
 * @param sampledParks        recorded parks the agent sampled (shorter than its {@code sampleBelow}): what is
 *                            summed over recorded parks (blame, profiles) estimates the parks it left out; this
 *                            table, from the agent's summaries, counts every park exactly
 * @param stackBudget         the agent's budget of events with a stack a second and the events it refused ({@link
 *                            StackBudget#NONE} when the recording has none): blame and profiles miss those waits, this
 *                            table counts them
 * @param profilersOwnWaits   waits on the profiler's own locks {@link #withoutProfilersOwn} left out (every format
 *                            says how many, as the agent's exit table does)
 */
public record LockContention(Path source, long startNanos, long durationNanos, ContentionOptions options,
                             List<LockMetrics> locks, int belowPrintThreshold, List<LockMetrics> sites,
                             Map<LockId, String> siteOfLock, List<LockContention> parts, long sampledParks,
                             StackBudget stackBudget, long profilersOwnWaits) {
    public LockContention {
        locks = List.copyOf(locks);
        sites = List.copyOf(sites);
        siteOfLock = Map.copyOf(siteOfLock);
        parts = List.copyOf(parts);
    }

    /** A result whose sites are those of {@code locks}. */
    public LockContention(Path source, long startNanos, long durationNanos, ContentionOptions options,
                          List<LockMetrics> locks, int belowPrintThreshold) {
        this(source, startNanos, durationNanos, options, locks, belowPrintThreshold,
                LockSites.group(locks, durationNanos), sitesOf(locks, durationNanos), List.of(), 0, StackBudget.NONE, 0);
    }

    /**
     * This result without the profiler's own locks ({@link dev.lockscope.core.FrameClassifier#isProfilersOwn}:
     * JFR's, lockscope's, its metrics server's), which are not the application's contention: the one place
     * every format's table leaves them out, their waits counted in {@link #profilersOwnWaits}.
     */
    public LockContention withoutProfilersOwn() {
        long waits = rows().stream().filter(LockTable::isProfilersOwn).mapToLong(LockMetrics::timesParked).sum();
        if (waits == 0 && rows().stream().noneMatch(LockTable::isProfilersOwn)) {
            return this;
        }
        List<LockMetrics> keptLocks = locks.stream().filter(m -> !LockTable.isProfilersOwn(m)).toList();
        List<LockMetrics> keptSites = sites.stream().filter(m -> !LockTable.isProfilersOwn(m)).toList();
        return new LockContention(source, startNanos, durationNanos, options, keptLocks, belowPrintThreshold, keptSites,
                siteOfLock, parts, sampledParks, stackBudget, profilersOwnWaits + waits);
    }

    /** The rows every report ranks: the sites, or the objects one by one with {@code --instances}. */
    public List<LockMetrics> rows() {
        return options.byInstance() ? locks : sites;
    }

    /**
     * Each of these objects ({@link LockMetrics#id}: with its kind, since one object's monitor can be both entered
     * and waited on at different sites under the same address) → {@code at Frame.method:line}. Keyed by the ids the
     * metrics already hold: a recording of hundreds of thousands of objects made a string key for each.
     */
    static Map<LockId, String> sitesOf(List<LockMetrics> instances, long totalExecutionNanos) {
        Map<LockId, String> out = new HashMap<>();
        LockSites.sitesOf(instances, totalExecutionNanos).forEach((m, site) -> out.put(m.id(), site));
        return out;
    }

    /** The key in {@link #siteOfLock} of one park blocker. */
    static LockId blockerKey(String blockerClass, int identityHash) {
        return LockId.blocker(blockerClass, identityHash);
    }

    /**
     * The row of {@link #rows} that a lock of owner blame is counted in: its site unless by instance;
     * the lock itself when the table has no record of it (it did not reach the collection threshold).
     */
    public LockId rowOf(LockId lock) {
        if (options.byInstance() || lock.id().startsWith(LockSites.SITE_PREFIX)) {
            return lock;
        }
        String site = siteOfLock.get(lock);
        return site == null ? lock : new LockId(lock.kind(), lock.lockClass(), site);
    }

    /**
     * The name of the row a lock (an object, as owner blame and what-if key them) is counted in, as the table names
     * it ({@link dev.lockscope.core.LockLabels}), with the object's id after it where the row has several objects
     * ({@code ActiveLock at ActiveLock.waitForGrant:118 x30210 @7f3a10}); the lock's own label where it has no row.
     */
    public java.util.function.Function<LockId, String> rowLabels() {
        List<LockMetrics> shown = rows();
        Map<LockMetrics, String> labels = dev.lockscope.core.LockLabels.of(shown);
        Map<LockId, LockMetrics> byId = new HashMap<>();
        shown.forEach(m -> byId.put(m.id(), m));
        return lock -> {
            if (lock == null) {
                return null;
            }
            LockMetrics row = byId.get(rowOf(lock));
            if (row == null) {
                return lock.label();
            }
            return row.instances() > 1 && !row.id().equals(lock) ? labels.get(row) + " @" + lock.id() : labels.get(row);
        };
    }

    /** Owner blame with every lock replaced by its row ({@link #rowOf}), so blame ranks what the table ranks. */
    public BlameResult byRow(BlameResult blame) {
        if (options.byInstance()) {
            return blame;
        }
        List<Contention> contentions = new ArrayList<>(blame.contentions().size());
        for (Contention c : blame.contentions()) {
            contentions.add(new Contention(rowOf(c.lock()), c.waiter(), c.waiterFrames(), c.cause(), c.afterWait(),
                    c.count(), c.nanos(), c.firstBeginNanos(), c.firstNanos()));
        }
        List<WaitRecord> waits = new ArrayList<>(blame.waits().size());
        for (WaitRecord w : blame.waits()) {
            waits.add(new WaitRecord(rowOf(w.lock()), w.waiter(), w.frames(), w.notifier(), w.notifierTookIn(), w.count(), w.nanos(),
                    w.timedOut(), w.firstBeginNanos(), w.firstNanos()));
        }
        return new BlameResult(contentions, waits, HandoffHold.sumBy(blame.handoffHolds(), this::rowOf));
    }

    /**
     * One result of several recordings (many JVMs, or the rotations of one): their lock objects side by
     * side (identity hashes and addresses mean nothing across JVMs, so objects are never matched) and
     * their sites matched by kind, class and acquiring site, their tallies summed
     * ({@link LockSites#group}). TotalExecutionTime is the sum of the recordings' lengths. Owner blame
     * is merged by the caller, each recording's first grouped by its own {@link #byRow}.
     */
    public static LockContention merge(List<LockContention> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge");
        }
        LockContention first = parts.get(0);
        long duration = 0;
        long start = Long.MAX_VALUE;
        int below = 0;
        long sampled = 0;
        StackBudget budget = StackBudget.NONE;
        List<LockMetrics> locks = new ArrayList<>();
        List<LockMetrics> sites = new ArrayList<>();
        for (LockContention p : parts) {
            duration += p.durationNanos();
            start = Math.min(start, p.startNanos());
            below += p.belowPrintThreshold();
            sampled += p.sampledParks();
            budget = budget.plus(p.stackBudget());
            locks.addAll(p.locks());
            sites.addAll(p.sites());
        }
        List<LockMetrics> total = new ArrayList<>();
        for (LockMetrics m : locks) {
            total.add(withTotal(m, duration));
        }
        return new LockContention(first.source(), start, duration, first.options(),
                dev.lockscope.core.LockTable.ranked(total), below, LockSites.group(sites, duration), Map.of(), parts, sampled, budget, 0);
    }

    private static LockMetrics withTotal(LockMetrics m, long totalExecutionNanos) {
        return new LockMetrics(m.kind(), m.className(), m.identityHash(), m.firstThread(), m.firstFrames(), m.tally(),
                totalExecutionNanos, m.instances());
    }

    /**
     * A row's total wait in each merged recording, in {@link #parts} order (0 where a recording has no
     * such site or object): the per-recording column in which an outlier JVM stands out.
     */
    public long[] waitPerPart(LockMetrics row) {
        long[] out = new long[parts.size()];
        String key = LockSites.keyOf(row);
        for (int i = 0; i < parts.size(); i++) {
            for (LockMetrics m : parts.get(i).rows()) {
                if (row.isSite() ? LockSites.keyOf(m).equals(key) : m.label().equals(row.label())) {
                    out[i] += m.totalWaitNanos();
                }
            }
        }
        return out;
    }
}
