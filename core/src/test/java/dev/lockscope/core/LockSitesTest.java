package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A site's real-time from its objects' rows and the union of their waits ({@link LockSites#group}). */
class LockSitesTest {
    private static final long MS = 1_000_000;
    private static final long RUN = 3_000 * MS;
    private static final String SYNC = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
    private static final List<String> FRAMES = List.of("java.util.concurrent.locks.LockSupport.park:211",
            "java.util.concurrent.locks.ReentrantLock.lock:322", "com.app.LockTable.lockEntry:45");

    private static LockMetrics object(String hash, long realTime) {
        return new LockMetrics(LockKind.PARK, SYNC, hash, "worker-1", FRAMES,
                ParkTally.of(0, 3, 0, 2, 2 * realTime, realTime, 0, RUN, true), RUN);
    }

    /** The agent's row of a site's blockers the GC collected: their tallies summed (CollectedTally). */
    private static LockMetrics collected(int objects, long summedRealTime) {
        return new LockMetrics(LockKind.PARK, SYNC, "at com.app.LockTable.lockEntry:45", "worker-1", FRAMES,
                ParkTally.of(0, 3L * objects, 0, 4, 2 * summedRealTime, summedRealTime, 0, RUN, true), RUN, objects);
    }

    private static long siteRealTime(List<LockMetrics> rows, long union) {
        String key = LockSites.keyOf(rows.get(0));
        List<LockMetrics> sites = LockSites.group(rows, RUN, Map.of(key, union));
        assertThat(sites).hasSize(1);
        return sites.get(0).realTimeNanos();
    }

    @Test
    void theUnionIsTheSitesRealTimeEvenWhenARowOfCollectedObjectsSumsToMoreThanTheRun() {
        // 2,400 collected objects waited 7.4 s summed in a 3 s run, at most five at once: the union 2.9 s
        List<LockMetrics> rows = List.of(object("1a", 40 * MS), object("2b", 30 * MS), collected(2_400, 7_400 * MS));
        assertThat(siteRealTime(rows, 2_900 * MS)).isEqualTo(2_900 * MS);
    }

    @Test
    void aSingleObjectLongerThanTheMeasuredUnionBoundsItFromBelow() {
        // under a recording threshold the union from the events misses short waits the object's tally has
        List<LockMetrics> rows = List.of(object("1a", 900 * MS), object("2b", 30 * MS));
        assertThat(siteRealTime(rows, 500 * MS)).isEqualTo(900 * MS);
    }

    @Test
    void neverMoreThanTheObjectsSum() {
        List<LockMetrics> rows = List.of(object("1a", 40 * MS), object("2b", 30 * MS));
        assertThat(siteRealTime(rows, 71 * MS)).isEqualTo(70 * MS);
    }

    private static final String NODE = "java.util.concurrent.ConcurrentHashMap$Node";
    private static final List<String> AT_COMPUTE = List.of("java.util.concurrent.ConcurrentHashMap.compute:1940",
            "com.app.Cache.load:20");
    private static final List<String> AT_EVICT = List.of("java.util.concurrent.ConcurrentHashMap.compute:1940",
            "com.app.Cache.evict:40");

    /**
     * Two map nodes, each waited for at two sites; node b's first wait (at load, where its row is) arrives after one at
     * evict. The row of load has both, and its real-time is the union of both nodes' waits (0-30 and 20-50 ms: 50 ms),
     * though a union kept while reading bound b to evict's row by its first wait to arrive.
     */
    @Test
    void aRowsUnionHasEveryMembersWaitsWhereverTheirFirstToArriveWas() {
        LockWaits a = new LockWaits(LockKind.MONITOR, NODE, "a", 0);
        a.add(0, 30 * MS, "t1", AT_COMPUTE);
        a.add(100 * MS, 110 * MS, "t1", AT_EVICT);
        LockWaits b = new LockWaits(LockKind.MONITOR, NODE, "b", 0);
        b.add(200 * MS, 260 * MS, "t2", AT_EVICT); // arrives first, begins later
        b.add(20 * MS, 50 * MS, "t2", AT_COMPUTE);
        LockMetrics am = a.metricsNow(RUN);
        LockMetrics bm = b.metricsNow(RUN);
        Map<LockMetrics, LockWaits> waitsOf = new java.util.IdentityHashMap<>(Map.of(am, a, bm, b));
        Map<String, Long> unions = LockSites.unionRealTimes(List.of(am, bm), RUN, waitsOf);
        String load = LockSites.keyOf(LockKind.MONITOR, NODE, "at com.app.Cache.load:20");
        // 0-50 ms with a waiter, 100-110 (a at evict), 200-260 (b at evict): both nodes' rows are load's
        assertThat(unions).containsEntry(load, 50 * MS + 10 * MS + 60 * MS).hasSize(1);
        List<LockMetrics> rows = LockSites.group(List.of(am, bm), RUN, unions);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).realTimeNanos()).isEqualTo(120 * MS);
    }

    /** A member that replayed waits before the end holds no longer all of them: no exact union, the kept one stands. */
    @Test
    void noUnionFromMembersThatReleasedWaits() {
        LockWaits a = new LockWaits(LockKind.MONITOR, NODE, "a", 0);
        a.add(0, 30 * MS, "t1", AT_COMPUTE);
        a.replayEarliest();
        LockWaits b = new LockWaits(LockKind.MONITOR, NODE, "b", 0);
        b.add(20 * MS, 50 * MS, "t2", AT_COMPUTE);
        assertThat(a.holdsEveryWait()).isFalse();
        assertThat(LockWaits.unionRealTimeNanos(List.of(a, b))).isEqualTo(-1);
        LockMetrics am = a.metricsNow(RUN);
        LockMetrics bm = b.metricsNow(RUN);
        assertThat(LockSites.unionRealTimes(List.of(am, bm), RUN, new java.util.IdentityHashMap<>(Map.of(am, a, bm, b))))
                .isEmpty();
    }
}
