package dev.lockscope.core;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lock objects whose waits are read one by one (monitors from JFR's events), at most {@code max} of them: beyond
 * that the one least recently waited for is retired into its site's sum. Derby's row locks make hundreds of thousands
 * of objects in a long run, each waited for a moment; followed whole, they were more than half of what
 * {@code lockscope report} retained. The agent's monitor table and the report use this one class, so both count alike.
 *
 * <p>Retiring replays the object's waits and adds its final numbers to its site's row: parks, thread-time, real-time
 * and peak stay exact (its waits are in the site's union already, {@link Followed#site}). A wait for it that arrives
 * later starts a new record of the same object, which {@link RetiredKeys} keeps from counting as a second object.
 * A long-lived object taken through a helper keeps a row of its own ({@link LockSites#sitesOf}) only while it is
 * followed; retired, it is its site's.
 *
 * <p>Not thread-safe: one reader.
 */
public final class FollowedLocks {
    /** Objects followed at most, by default: the agent's {@code maxBlockers}. */
    public static final int DEFAULT_MAX = 50_000;

    /** One object followed: its waits, and the site union they count in too. */
    public static final class Followed {
        public final LockKind kind;
        public final String className;
        public final LockWaits waits;
        /** The union of its site's waits that its waits join too; null until a wait with a stack names the site. */
        public LockWaits site;
        /** The earliest begin of its waits so far: a reader that formats a stack only for an object's first wait. */
        public long firstBegin = Long.MAX_VALUE;

        public Followed(LockKind kind, String className, String identity, long collectionThreshold) {
            this.kind = kind;
            this.className = className;
            this.waits = new LockWaits(kind, className, identity, collectionThreshold);
        }
    }

    private record Key(LockKind kind, String className, long identity) {
        long hash64() {
            return RetiredKeys.hash(RetiredKeys.hash(RetiredKeys.hash(RetiredKeys.SEED, kind.name()), className), identity);
        }
    }

    /** The objects retired at one site: their final numbers summed, the earliest one's first wait. */
    private static final class Retired {
        final LockKind kind;
        final String className;
        final String site;
        final long collectionThreshold;
        int objects;
        long parks;
        int peak;
        long threadTime;
        long realTime;
        long lives;
        long firstTime = Long.MAX_VALUE;
        String firstThread;
        List<String> firstFrames;

        Retired(LockKind kind, String className, String site, long collectionThreshold) {
            this.kind = kind;
            this.className = className;
            this.site = site;
            this.collectionThreshold = collectionThreshold;
        }

        /** @param again whether this object was retired before (seen again after that, a record of its own since) */
        void add(LockMetrics m, boolean again) {
            ParkTally t = m.tally();
            objects += again ? 0 : 1;
            parks += t.timesParked;
            peak = Math.max(peak, t.peakParked);
            threadTime += t.threadTimeNanos;
            realTime += t.realTimeNanos;
            lives += t.lifeTimeNanos();
            if (t.firstTime < firstTime) {
                firstTime = t.firstTime;
                firstThread = m.firstThread();
                firstFrames = m.firstFrames();
            }
        }

        /**
         * One row of {@link #objects} objects, which the table's site row sums with the followed ones
         * ({@link LockSites#group}); {@code followedAgain} of them are followed again now, and count there.
         */
        LockMetrics metrics(long totalExecutionNanos, int followedAgain) {
            return new LockMetrics(kind, className, site, firstThread, firstFrames,
                    ParkTally.of(collectionThreshold, parks, 0, peak, threadTime, realTime, firstTime, firstTime + lives, true),
                    totalExecutionNanos, Math.max(1, objects - followedAgain));
        }
    }

    /** Told of each object retired into its site's sum. */
    @FunctionalInterface
    public interface RetiredObject {
        void retired(LockKind kind, String className, long identity, String site);
    }

    private final int max;
    private final long collectionThreshold;
    private final ReplayWindow window;
    private final RetiredObject onRetired;
    /** The least recently waited for first (access order: the next to retire). */
    private final LinkedHashMap<Key, Followed> followed = new LinkedHashMap<>(16, 0.75f, true);
    /** By {@link LockSites#keyOf}. */
    private final Map<String, Retired> retired = new HashMap<>();
    private final RetiredKeys retiredKeys = new RetiredKeys();

    /**
     * @param window    the window that holds the objects' points: a retired object's leave it
     * @param onRetired told of each object retired with metrics (one that reached the collection threshold)
     */
    public FollowedLocks(int max, long collectionThreshold, ReplayWindow window, RetiredObject onRetired) {
        if (max < 1) {
            throw new IllegalArgumentException("max " + max);
        }
        this.max = max;
        this.collectionThreshold = collectionThreshold;
        this.window = window;
        this.onRetired = onRetired;
    }

    /** The object, followed from now on if it was not: its identity is the JVM's (a monitor's address). */
    public Followed follow(LockKind kind, String className, long identity) {
        Key key = new Key(kind, className, identity);
        Followed f = followed.get(key);
        if (f == null) {
            if (followed.size() >= max) {
                retireLeastRecent();
            }
            f = new Followed(kind, className, Long.toHexString(identity), collectionThreshold);
            followed.put(key, f);
        }
        return f;
    }

    private void retireLeastRecent() {
        Iterator<Map.Entry<Key, Followed>> it = followed.entrySet().iterator();
        Map.Entry<Key, Followed> eldest = it.next();
        it.remove();
        Followed old = eldest.getValue();
        window.remove(old.waits);
        LockMetrics last = old.waits.metrics(1);
        if (last != null) {
            String site = LockSites.siteOf(last.firstFrames());
            retired.computeIfAbsent(LockSites.keyOf(old.kind, old.className, site),
                            k -> new Retired(old.kind, old.className, site, collectionThreshold))
                    .add(last, retiredKeys.add(eldest.getKey().hash64()));
            onRetired.retired(old.kind, old.className, eldest.getKey().identity(), site);
        }
    }

    /** Objects followed now. */
    public int size() {
        return followed.size();
    }

    /**
     * The metrics of every object so far: each followed one's as if its points were replayed now (they stay held;
     * its {@link LockWaits} goes into {@code waitsOf}, for {@link LockSites#unionRealTimes}), then one row per site
     * of the retired ones. Objects that never reached the collection threshold have none.
     */
    public void metrics(long totalExecutionNanos, List<LockMetrics> out, Map<LockMetrics, LockWaits> waitsOf) {
        Map<String, Integer> followedAgain = new HashMap<>();
        for (Map.Entry<Key, Followed> e : followed.entrySet()) {
            LockMetrics m = e.getValue().waits.metricsNow(totalExecutionNanos);
            if (m != null) {
                out.add(m);
                waitsOf.put(m, e.getValue().waits);
                if (!retired.isEmpty() && retiredKeys.contains(e.getKey().hash64())) {
                    followedAgain.merge(LockSites.keyOf(m), 1, Integer::sum);
                }
            }
        }
        retired.forEach((key, r) -> out.add(r.metrics(totalExecutionNanos, followedAgain.getOrDefault(key, 0))));
    }

    /** Forgets every object. */
    public void clear() {
        followed.values().forEach(f -> window.remove(f.waits));
        followed.clear();
        retired.clear();
    }
}
