package dev.lockscope.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lock rows by the lock's role: the objects of one lock class acquired at one place in the application,
 * or one long-lived object taken through a helper. Used by the agent's table and by
 * {@code lockscope report}, so both group alike.
 *
 * <p>The rule, from what the recording holds for each object (its class, the stack of its first wait,
 * the span from its first to its last wait):
 * <ol>
 * <li>An object's place is the first application frame of its first wait (the J9 park-contention report §3.7.2's stack),
 * past the JDK's, the recorder's and lock wrappers' frames ({@link FrameClassifier}): the code that
 * acquired it. Objects of one kind and class at one place are one row. An application that creates
 * and drops lock objects (a lock table's entry mutexes, one per row it locks) spreads its bottleneck
 * over thousands of short-lived objects, each too small to rank; a {@code synchronized} monitor the JVM
 * deflated and inflated again has a new address, so one object appears as several: both are one row.
 * <li>A place is a helper that takes the lock it is given ({@code hold(Lock l, ...)},
 * {@code withLock(lock, body)}, a {@code synchronized (lock)} in a utility) when two or more of its objects
 * are long-lived (waited for over at least {@link #LONG_LIVED_SHARE} of the run) and were first reached
 * from different callers (the next application frame). Then each long-lived object's place is its caller
 * instead, so distinct locks get distinct rows named by the code that uses them; the short-lived objects
 * there stay one row of the helper (its union of waits, measured per place, still counts the long-lived
 * ones: that row's real-time is then bounded by its own objects' sum).
 * </ol>
 *
 * <p>A site sums its instances' tallies: times parked, parked now and thread-time add up. Its real-time
 * is the time at least one of its objects was waited for, the union of their waiting intervals,
 * where the caller measured it ({@link #group(List, long, Map)}: {@code lockscope report}), so its
 * %real is a share of the wall time like any lock's and never passes 100; where nobody measured it (the
 * agent's live table keeps no intervals) the objects' real-times are summed, and objects held at the
 * same time count once each. Its peak is the highest of one instance; its life
 * (§3.7.14's Time(n) − Time(1)) is the sum of its instances' lives, so its %real-life-time is how busy
 * its objects were over their own lives, on average (and times from different JVMs never mix). The
 * first thread and stack are those of the instance measured first.
 */
public final class LockSites {
    /** How a site row's {@link LockMetrics#identityHash} begins: {@code at Frame.method:line}. */
    public static final String SITE_PREFIX = "at ";

    private LockSites() {
    }

    /** The site identity of one lock: {@code at } and its acquiring frame ({@code at ?} without a stack). */
    public static String siteOf(LockMetrics instance) {
        return siteOf(instance.firstFrames());
    }

    /**
     * An object waited for over at least this share of the run is long-lived: a lock the program keeps,
     * not one it makes and drops (a lock table's entry lives while one transaction holds its row).
     */
    public static final double LONG_LIVED_SHARE = 0.1;

    /** The site identity of a lock first waited for with this stack (innermost frame first). */
    public static String siteOf(List<String> firstFrames) {
        int at = placeIndex(firstFrames, 0);
        if (at < 0) {
            return SITE_PREFIX + (firstFrames.isEmpty() ? "?" : firstFrames.get(0)); // no application frame: the innermost
        }
        return SITE_PREFIX + firstFrames.get(at);
    }

    /** The index of the first application frame at or after {@code from}, or -1. */
    private static int placeIndex(List<String> frames, int from) {
        for (int i = from; i < frames.size(); i++) {
            if (CallStack.frameAt(frames, i).kind().isApplication()) {
                return i;
            }
        }
        return -1;
    }

    /** The caller of an object's place (the next application frame of its first wait), or null. */
    private static String callerOf(List<String> firstFrames) {
        int place = placeIndex(firstFrames, 0);
        int caller = place < 0 ? -1 : placeIndex(firstFrames, place + 1);
        return caller < 0 ? null : firstFrames.get(caller);
    }

    /**
     * The site of the row each of these locks belongs to ({@code at Frame.method:line}), by the rule of
     * this class; by identity, in the order given.
     */
    public static Map<LockMetrics, String> sitesOf(List<LockMetrics> locks, long totalExecutionNanos) {
        Map<String, List<LockMetrics>> byPlace = new LinkedHashMap<>();
        for (LockMetrics m : locks) {
            byPlace.computeIfAbsent(keyOf(m), k -> new ArrayList<>()).add(m);
        }
        Map<LockMetrics, String> out = new IdentityHashMap<>();
        for (List<LockMetrics> members : byPlace.values()) {
            Set<LockMetrics> longLived = Collections.newSetFromMap(new IdentityHashMap<>());
            Set<String> callers = new HashSet<>();
            for (LockMetrics m : members) {
                if (!m.isSite() && m.instances() == 1
                        && m.tally().lifeTimeNanos() >= LONG_LIVED_SHARE * totalExecutionNanos) {
                    longLived.add(m);
                    callers.add(String.valueOf(callerOf(m.firstFrames())));
                }
            }
            boolean helper = longLived.size() >= 2 && callers.size() >= 2;
            for (LockMetrics m : members) {
                String caller = helper && longLived.contains(m) ? callerOf(m.firstFrames()) : null;
                out.put(m, caller != null ? SITE_PREFIX + caller : m.isSite() ? m.identityHash() : siteOf(m));
            }
        }
        return out;
    }

    /** The key of the site row a lock belongs to: kind, class and site. */
    public static String keyOf(LockKind kind, String className, String site) {
        return kind.name() + '\u0000' + className + '\u0000' + site;
    }

    /** The key of the site row {@code instance} belongs to. */
    public static String keyOf(LockMetrics instance) {
        return instance.isSite() ? keyOf(instance.kind(), instance.className(), instance.identityHash())
                : keyOf(instance.kind(), instance.className(), siteOf(instance));
    }

    /**
     * The sites of these locks (instances, or sites to be merged again: rows of several recordings),
     * ranked as every table ({@link LockTable#RANKING}).
     *
     * @param totalExecutionNanos the denominator of the sites' utilisation percentages
     */
    public static List<LockMetrics> group(List<LockMetrics> locks, long totalExecutionNanos) {
        return group(locks, totalExecutionNanos, Map.of());
    }

    /**
     * The same, where {@code unionRealTime} has a site's real-time measured as the union of its objects'
     * waiting intervals (by {@link #keyOf}): used when it is smaller than the objects' sum, which it is
     * unless they never waited at the same time.
     */
    public static List<LockMetrics> group(List<LockMetrics> locks, long totalExecutionNanos, Map<String, Long> unionRealTime) {
        Map<LockMetrics, String> siteOf = sitesOf(locks, totalExecutionNanos);
        Map<String, List<LockMetrics>> bySite = bySite(locks, siteOf);
        List<LockMetrics> sites = new ArrayList<>(bySite.size());
        bySite.forEach((key, members) -> sites.add(sum(members, siteOf.get(members.get(0)), totalExecutionNanos,
                unionRealTime.get(key))));
        return LockTable.ranked(sites);
    }

    /** {@code locks} by the {@link #keyOf key} of the site row each belongs to ({@code siteOf}), in the order given. */
    private static Map<String, List<LockMetrics>> bySite(List<LockMetrics> locks, Map<LockMetrics, String> siteOf) {
        Map<String, List<LockMetrics>> bySite = new LinkedHashMap<>();
        for (LockMetrics m : locks) {
            bySite.computeIfAbsent(keyOf(m.kind(), m.className(), siteOf.get(m)), k -> new ArrayList<>()).add(m);
        }
        return bySite;
    }

    /**
     * The real-time of each site row of several objects whose waits were all read one by one (monitors, and parks
     * without the agent's summaries), by {@link #keyOf}: the union of the members' waiting intervals, replayed from
     * the points their {@link LockWaits} still hold, where every member still holds all of them. A row's members are
     * known only once the recording is read (an object's row is that of its first wait, which may arrive last), so a
     * union kept while reading binds each object to the row of the first of its waits to arrive instead: wrong for
     * an object waited for at two sites (Caffeine's map nodes, in compute and in eviction), whose row then summed
     * its members' real-times, at exit 186% of the run. {@code waitsOf} (by identity) has the members' waits.
     */
    public static Map<String, Long> unionRealTimes(List<LockMetrics> locks, long totalExecutionNanos,
                                                   Map<LockMetrics, LockWaits> waitsOf) {
        Map<String, Long> out = new HashMap<>();
        bySite(locks, sitesOf(locks, totalExecutionNanos)).forEach((key, members) -> {
            if (members.size() < 2) {
                return;
            }
            List<LockWaits> waits = new ArrayList<>(members.size());
            for (LockMetrics m : members) {
                LockWaits w = waitsOf.get(m);
                if (w == null) {
                    return; // a member counted elsewhere (the agent's summaries): its waits are not here
                }
                waits.add(w);
            }
            long union = LockWaits.unionRealTimeNanos(waits);
            if (union >= 0) {
                out.put(key, union);
            }
        });
        return out;
    }

    /** The site rows by {@link #keyOf}. */
    public static Map<String, LockMetrics> byKey(List<LockMetrics> sites) {
        Map<String, LockMetrics> out = new HashMap<>();
        for (LockMetrics s : sites) {
            out.put(keyOf(s), s);
        }
        return out;
    }

    private static final Comparator<LockMetrics> FIRST_MEASURED = Comparator
            .comparingLong((LockMetrics m) -> m.tally().firstTime)
            .thenComparing(LockMetrics::identityHash);

    private static LockMetrics sum(List<LockMetrics> members, String site, long totalExecutionNanos, Long unionRealTime) {
        LockMetrics first = members.stream().min(FIRST_MEASURED).orElseThrow();
        long parks = 0;
        long threadTime = 0;
        long realTime = 0;
        long lives = 0;
        int parkedNow = 0;
        int peak = 0;
        int instances = 0;
        long longestRealTime = 0;
        for (LockMetrics m : members) {
            ParkTally t = m.tally();
            if (m.instances() == 1) {
                // a row of several objects (the agent's row of a site's collected blockers) has their real-times
                // summed, so it is no lower bound of the union: with the GC collecting most of a lock table's
                // entries, that sum was 2.5x the run and the site's real-time read 7.4 s in a 3 s run
                longestRealTime = Math.max(longestRealTime, t.realTimeNanos);
            }
            parks += t.timesParked;
            parkedNow += t.parkedNow;
            peak = Math.max(peak, t.peakParked);
            threadTime += t.threadTimeNanos;
            realTime += t.realTimeNanos;
            lives += t.lifeTimeNanos();
            instances += m.instances();
        }
        if (unionRealTime != null) {
            // the union is measured from the waits recorded one by one: under a recording threshold it misses
            // short ones, which each object's own tally (the agent's summaries) still counts, so it is at
            // least the longest single object's; and never more than their sum
            realTime = Math.min(realTime, Math.max(unionRealTime, longestRealTime));
        }
        ParkTally tally = ParkTally.of(first.tally().collectionThreshold, parks, parkedNow, peak, threadTime, realTime,
                0, lives, true);
        return new LockMetrics(first.kind(), first.className(), site, first.firstThread(), first.firstFrames(), tally,
                totalExecutionNanos, instances);
    }
}
