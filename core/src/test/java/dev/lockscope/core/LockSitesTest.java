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
}
