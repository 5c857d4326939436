package dev.lockscope.analysis;

import dev.lockscope.analysis.model.LockKey;
import dev.lockscope.analysis.model.LockSummary;
import dev.lockscope.analysis.model.StackBudget;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.core.FollowedLocks;
import dev.lockscope.core.LockId;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockSites;
import dev.lockscope.core.LockTable;
import dev.lockscope.core.LockWaits;
import dev.lockscope.core.ReplayWindow;
import dev.lockscope.core.ParkTally;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The park-contention metrics of the J9 park-contention report §3.7 from a recording, per lock:
 * <ul>
 *   <li>park blockers, keyed by blocker class and identity hash: from the agent's
 *       {@code lockscope.LockSummary} events where the recording has them (exact: they count every
 *       park, also those a recording threshold left out of the events, and are the numbers of the
 *       agent's own table at exit), otherwise replayed from {@code lockscope.Park} events, a park with
 *       no end being "parked now" (§3.7.6);</li>
 *   <li>contended monitors ({@code jdk.JavaMonitorEnter}), keyed by monitor class and the JVM's
 *       monitor address, where "parked" reads "blocked on entry".</li>
 * </ul>
 * TotalExecutionTime (§3.7.12/§3.7.13) is the recording's duration. Each lock's waits go through
 * {@link LockWaits}, the replay the agent's table uses too; the agent keeps its park tallies live with
 * the same formulas ({@link dev.lockscope.core.ParkTally}). This is the one accounting of wait per lock:
 * the table, the report's findings and the sweep read it.
 *
 * <p>Online: parks arrive in about time order; a monitor entry arrives at its end, so its begin is
 * late by the time it blocked. Each lock holds its points until they are older than the waits still
 * arriving, all locks' in one {@link ReplayWindow} (the agent's monitor table uses the same).
 */
public final class LockContentionAnalysis implements RecordingVisitor {
    private final ContentionOptions options;
    private final Map<LockKey, FollowedLocks.Followed> blockers = new HashMap<>();
    /**
     * Monitors blocked on, and monitors waited on with Object.wait until another thread notified (locks built on
     * wait/notify): at most {@link FollowedLocks#DEFAULT_MAX} followed one by one, as the agent's table does.
     */
    private final FollowedLocks monitors;
    /** The site each retired monitor was summed at, for owner blame's rows ({@link LockContention#rowOf}). */
    private final RetiredSites retiredSites = new RetiredSites();
    /**
     * Each lock site's waits, all its objects' together, replayed like one lock's: its real-time is the
     * union of its objects' waiting intervals, the site's one %real ({@link LockSites#group(List, long, Map)}).
     * Keyed by {@link LockSites#keyOf}, each object's site taken from the first of its waits to arrive
     * ({@link FollowedLocks.Followed#site}).
     */
    private final Map<String, LockWaits> siteUnions = new HashMap<>();
    /** The latest {@code lockscope.LockSummary} of each blocker: exact totals, recorded parks or not. */
    private final Map<LockKey, LockSummary> summaries = new HashMap<>();
    /** The latest summary of each site's blockers the GC collected, by {@link LockSites#keyOf}. */
    private final Map<String, LockSummary> collectedSummaries = new HashMap<>();
    /** The latest batch of summaries: the agent's snapshot the report prints, as its table at exit did. */
    private long latestBatch;
    private final ReplayWindow window = new ReplayWindow();
    /** Recorded parks the agent sampled ({@link LockContention#sampledParks}). */
    private long sampledParks;
    /** The latest {@code lockscope.StackBudget}: the events the agent's stack budget refused over the run. */
    private StackBudget stackBudget = StackBudget.NONE;
    private LockContention result;

    public LockContentionAnalysis(ContentionOptions options) {
        this.options = options;
        this.monitors = new FollowedLocks(FollowedLocks.DEFAULT_MAX, options.collectionThreshold(), window, retiredSites);
    }

    @Override
    public void parkBegin(ParkWait p) {
        FollowedLocks.Followed lock = blockers.computeIfAbsent(new LockKey(p.blockerClass(), p.blockerHash()),
                k -> new FollowedLocks.Followed(LockKind.PARK, p.blockerClass(), Integer.toHexString(p.blockerHash()),
                        options.collectionThreshold()));
        lock.waits.begin(p.beginNanos(), p.beginSeq(), p.thread().name(), p.frames());
        window.added(lock.waits, 1, p.beginNanos());
        LockWaits site = siteUnion(lock, p.frames());
        site.begin(p.beginNanos(), p.beginSeq(), p.thread().name(), p.frames());
        window.added(site, 1, p.beginNanos());
    }

    @Override
    public void parkEnd(ParkWait p) {
        if (p.sampled()) {
            sampledParks++;
        }
        FollowedLocks.Followed lock = blockers.get(new LockKey(p.blockerClass(), p.blockerHash()));
        lock.waits.end(p.beginNanos(), p.endNanos());
        window.added(lock.waits, 1, p.endNanos());
        LockWaits site = lock.site;
        site.end(p.beginNanos(), p.endNanos());
        window.added(site, 1, p.endNanos());
    }

    @Override
    public void stackBudget(StackBudget b) {
        if (stackBudget == StackBudget.NONE || b.batch() >= stackBudget.batch()) {
            stackBudget = b;
        }
    }

    @Override
    public void lockSummary(LockSummary s) {
        if (s.collectionThreshold() != options.collectionThreshold()) {
            return;
        }
        latestBatch = Math.max(latestBatch, s.batch());
        if (s.isCollected()) {
            collectedSummaries.merge(s.siteKey(), s,
                    (a, b) -> b.isLaterThan(a) ? b : a);
        } else {
            summaries.merge(new LockKey(s.blockerClass(), s.blockerHash()), s, (a, b) -> b.isLaterThan(a) ? b : a);
        }
    }

    @Override
    public void monitorEnter(MonitorEnter e) {
        whole(monitors.follow(LockKind.MONITOR, e.monitorClass(), e.address()), e.beginNanos(), e.endNanos(),
                e.thread().javaTid(), e.thread().name(), e.frames());
    }

    /**
     * An {@code Object.wait} that another thread's notify ended counts as a wait for a lock of kind
     * {@code wait} (a row lock of a database, a hand-made latch): the seed's formulas over its waits, as
     * for parks; timed-out waits are sleeps, not waits for another thread. Whether such a lock's waits
     * are contention or idle is decided where every lock's are (the report's wait classifier).
     */
    @Override
    public void monitorWait(MonitorWait w) {
        if (!w.isLockWait()) {
            return;
        }
        whole(monitors.follow(LockKind.WAIT, w.monitorClass(), w.address()), w.beginNanos(), w.endNanos(),
                w.thread().javaTid(), w.thread().name(), w.frames());
    }

    /** A wait that arrived whole (JFR writes a monitor's at its end), on its lock and on its lock's site. */
    private void whole(FollowedLocks.Followed lock, long begin, long end, long tie, String thread, List<String> frames) {
        for (LockWaits l : List.of(lock.waits, siteUnion(lock, frames))) {
            l.begin(begin, tie, thread, frames);
            l.end(begin, end);
            window.added(l, 2, end);
        }
    }

    /** The site union an object's waits also count in: its site is that of the first of its waits to arrive. */
    private LockWaits siteUnion(FollowedLocks.Followed object, List<String> frames) {
        if (object.site != null) {
            return object.site;
        }
        LockWaits site = siteUnions.computeIfAbsent(LockSites.keyOf(object.kind, object.className, LockSites.siteOf(frames)),
                key -> new LockWaits(object.kind, object.className, key, 0));
        // an object is bound to its site by a wait with a stack (a park's end needs the site of its begin);
        // a monitor event without one counts in the unknown site until one with a stack comes
        if (!frames.isEmpty() || object.kind == LockKind.PARK) {
            object.site = site;
        }
        return site;
    }

    @Override
    public void finish(RecordingInfo info) {
        long total = info.durationNanos();
        // The latest batch of summaries holds every blocker then live, and per site the blockers the GC had
        // collected: a blocker summarized in an earlier batch only, or never but with recorded parks, at a
        // site with collected ones was collected and is in its site's sum (not counted again)
        blockers.keySet().removeAll(summaries.keySet());
        collectedSummaries.values().removeIf(s -> s.batch() != latestBatch);
        // The objects counted in a collected sum have no row of their own: owner blame finds their site row
        // through this map (without it each was a blame node of its own, and a site of many short-lived
        // objects fell behind a single lock in the blame tree while it led the table).
        Map<LockId, String> siteOfCollected = new HashMap<>();
        summaries.values().removeIf(s -> {
            LockSummary sum = s.batch() == latestBatch ? null : collectedSummaries.get(s.siteKey());
            if (sum != null) {
                siteOfCollected.put(LockContention.blockerKey(s.blockerClass(), s.blockerHash()), LockSites.siteOf(sum.firstFrames()));
            }
            return sum != null;
        });
        List<LockMetrics> collected = new ArrayList<>(summarized(summaries.values(), total));
        collected.addAll(summarized(collectedSummaries.values(), total));
        Map<LockWaits, String> sitesWithCollected = new java.util.IdentityHashMap<>();
        collectedSummaries.forEach((key, sum) -> {
            LockWaits site = siteUnions.get(key);
            if (site != null) {
                sitesWithCollected.put(site, LockSites.siteOf(sum.firstFrames()));
            }
        });
        blockers.entrySet().removeIf(e -> {
            String site = sitesWithCollected.get(e.getValue().site);
            if (site != null) {
                siteOfCollected.put(LockContention.blockerKey(e.getKey().className(), (int) e.getKey().identity()), site);
            }
            return site != null;
        });
        // metricsNow, not metrics: the points stay held for the exact unions of the site rows below
        Map<LockMetrics, LockWaits> waitsOf = new java.util.IdentityHashMap<>();
        for (FollowedLocks.Followed l : blockers.values()) {
            LockMetrics m = l.waits.metricsNow(total);
            if (m != null) {
                collected.add(m);
                waitsOf.put(m, l.waits);
            }
        }
        monitors.metrics(total, collected, waitsOf);
        // §3.3.2: "filtering all the records with number of parks less than valueprintThreshold", applied
        // to the rows shown: a site of many objects parked on a few times each is one row
        List<LockMetrics> shown = aboveThreshold(collected);
        Map<String, Long> unionRealTime = new HashMap<>();
        siteUnions.forEach((key, site) -> {
            LockMetrics m = site.metrics(total);
            if (m != null) {
                unionRealTime.put(key, m.realTimeNanos());
            }
        });
        // exact where the row's members still hold all their waits (a row's members are known only now)
        unionRealTime.putAll(LockSites.unionRealTimes(collected, total, waitsOf));
        waitsOf.clear();
        // where the agent measured a site's union (its summaries carry it), that one: it has the waits shorter
        // than the threshold, which the recorded events lack, and it is the number the agent's table printed
        for (Map<?, LockSummary> batch : List.of(summaries, collectedSummaries)) {
            for (LockSummary s : batch.values()) {
                if (s.batch() == latestBatch && s.siteRealTimeNanos() > 0) {
                    unionRealTime.put(s.siteKey(), s.siteRealTimeNanos());
                }
            }
        }
        window.clear();
        siteUnions.clear();
        blockers.clear(); // their points, held for the unions above
        monitors.clear();
        List<LockMetrics> allSites = LockSites.group(collected, total, unionRealTime);
        List<LockMetrics> sites = aboveThreshold(allSites);
        int below = options.byInstance() ? collected.size() - shown.size() : allSites.size() - sites.size();
        Map<LockId, String> siteOfLock = LockContention.sitesOf(collected, total);
        siteOfCollected.forEach(siteOfLock::putIfAbsent);
        retiredSites.forEach(siteOfLock::putIfAbsent);
        retiredSites.clear();
        result = new LockContention(info.source(), info.startNanos(), total, options, LockTable.ranked(shown), below,
                sites, siteOfLock, List.of(), sampledParks, stackBudget, 0);
    }

    private List<LockMetrics> aboveThreshold(List<LockMetrics> rows) {
        List<LockMetrics> shown = new ArrayList<>();
        for (LockMetrics m : rows) {
            if (m.timesParked() >= options.printThreshold()) {
                shown.add(m);
            }
        }
        return shown;
    }

    /**
     * The park blockers from the agent's summaries, which count every park (a recording threshold
     * leaves short parks out of the events): the same numbers the agent's table printed at exit.
     */
    private static List<LockMetrics> summarized(java.util.Collection<LockSummary> summaries, long totalExecutionNanos) {
        List<LockSummary> ordered = new ArrayList<>(summaries);
        ordered.sort(Comparator.comparing(LockSummary::blockerClass).thenComparingInt(LockSummary::blockerHash)
                .thenComparing(s -> LockSites.siteOf(s.firstFrames())));
        List<LockMetrics> out = new ArrayList<>(ordered.size());
        for (LockSummary s : ordered) {
            if (s.collecting()) {
                ParkTally tally = ParkTally.of(s.collectionThreshold(), s.timesParked(), s.parkedNow(), s.peakParked(),
                        s.threadTimeNanos(), s.realTimeNanos(), 0, s.lifeTimeNanos(), true);
                // collected blockers: one row of their site, which sums it with the live ones
                out.add(new LockMetrics(LockKind.PARK, s.blockerClass(),
                        s.isCollected() ? LockSites.siteOf(s.firstFrames()) : Integer.toHexString(s.blockerHash()),
                        s.firstThread(), s.firstFrames(), tally, totalExecutionNanos, Math.max(1, s.collectedObjects())));
            }
        }
        return out;
    }

    /** The result; available once the recording has been read. */
    public LockContention result() {
        if (result == null) {
            throw new IllegalStateException("the recording has not been read to its end");
        }
        return result;
    }

    /**
     * The monitors retired from {@link #monitors} and the site each was summed at: 12 bytes an object (its address and
     * its site's index), where following it cost about 400.
     */
    private static final class RetiredSites implements FollowedLocks.RetiredObject {
        private record Site(LockKind kind, String className, String site) {
        }

        private final Map<Site, Integer> indexOf = new HashMap<>();
        private final List<Site> sites = new ArrayList<>();
        private long[] identities = new long[1 << 10];
        private int[] siteIndexes = new int[1 << 10];
        private int size;

        @Override
        public void retired(LockKind kind, String className, long identity, String site) {
            int index = indexOf.computeIfAbsent(new Site(kind, className, site), s -> {
                sites.add(s);
                return sites.size() - 1;
            });
            if (size == identities.length) {
                identities = java.util.Arrays.copyOf(identities, 2 * size);
                siteIndexes = java.util.Arrays.copyOf(siteIndexes, 2 * size);
            }
            identities[size] = identity;
            siteIndexes[size++] = index;
        }

        void forEach(java.util.function.BiConsumer<LockId, String> action) {
            for (int i = 0; i < size; i++) {
                Site s = sites.get(siteIndexes[i]);
                action.accept(new LockId(s.kind(), s.className(), Long.toHexString(identities[i])), s.site());
            }
        }

        void clear() {
            indexOf.clear();
            sites.clear();
            identities = new long[0];
            siteIndexes = new int[0];
            size = 0;
        }
    }
}
