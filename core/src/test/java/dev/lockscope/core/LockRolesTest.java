package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A row is a lock's role ({@link LockSites}) and its name tells it apart ({@link LockLabels}). */
class LockRolesTest {
    private static final long MS = 1_000_000;
    private static final long RUN = 3_000 * MS;
    private static final String SYNC = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
    private static final String PARK = "java.util.concurrent.locks.LockSupport.park:211";
    private static final String LOCK = "java.util.concurrent.locks.ReentrantLock.lock:322";

    private static LockMetrics object(String className, String hash, long life, long wait, String... appFrames) {
        List<String> frames = new ArrayList<>(List.of(PARK, LOCK));
        frames.addAll(List.of(appFrames));
        return new LockMetrics(LockKind.PARK, className, hash, "worker-1", frames,
                ParkTally.of(0, 10, 0, 2, wait, wait / 2, 0, life, true), RUN);
    }

    @Test
    void longLivedLocksTakenThroughOneHelperAreRowsOfTheirCallers() {
        List<LockMetrics> locks = List.of(
                object(SYNC, "a1", RUN, 50 * MS, "app.Helper.hold:10", "app.Work.five:20"),
                object(SYNC, "b2", RUN, 200 * MS, "app.Helper.hold:10", "app.Work.twenty:30"),
                object(SYNC, "c3", RUN, 500 * MS, "app.Helper.hold:10", "app.Work.fifty:40"));
        List<LockMetrics> rows = LockSites.group(locks, RUN);
        assertThat(rows).extracting(LockMetrics::identityHash)
                .containsExactly("at app.Work.fifty:40", "at app.Work.twenty:30", "at app.Work.five:20");
        assertThat(rows).extracting(LockMetrics::instances).containsOnly(1);
        assertThat(LockLabels.of(rows).values()).containsExactlyInAnyOrder("ReentrantLock at Work.fifty:40",
                "ReentrantLock at Work.twenty:30", "ReentrantLock at Work.five:20");
    }

    @Test
    void objectsMadeAndDroppedAtOnePlaceAreOneRowWhateverTheirCallers() {
        List<LockMetrics> locks = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            // each entry's mutex lives a few milliseconds; the lock table is called from two places
            locks.add(object(SYNC, Integer.toHexString(i), 3 * MS, MS, "db.LockSet.lockObject:77",
                    i % 2 == 0 ? "db.Txn.lockRow:5" : "db.Txn.lockTable:9"));
        }
        List<LockMetrics> rows = LockSites.group(locks, RUN);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).instances()).isEqualTo(200);
        assertThat(LockLabels.of(rows.get(0))).isEqualTo("ReentrantLock at LockSet.lockObject:77 x200");
    }

    @Test
    void locksOfOneCallerTakenThroughAHelperStayOneRow() {
        // the stripes of a striped lock, all taken by one method: one role
        List<LockMetrics> rows = LockSites.group(List.of(
                object(SYNC, "a1", RUN, 50 * MS, "app.Helper.hold:10", "app.Cache.put:20"),
                object(SYNC, "b2", RUN, 60 * MS, "app.Helper.hold:10", "app.Cache.put:20")), RUN);
        assertThat(rows).extracting(LockMetrics::identityHash).containsExactly("at app.Helper.hold:10");
    }

    @Test
    void aLockWrapperIsSeenThroughToItsCaller() {
        List<LockMetrics> rows = LockSites.group(List.of(
                object(SYNC, "a1", RUN, 50 * MS, "org.eclipse.jetty.util.thread.AutoLock.lock:62", "app.Pool.acquire:20")), RUN);
        assertThat(rows).extracting(LockMetrics::identityHash).containsExactly("at app.Pool.acquire:20");
    }

    @Test
    void labelsGrowUntilNoTwoRowsShareOne() {
        LockMetrics node = object("java.util.concurrent.ConcurrentHashMap$Node", "a1", RUN, 50 * MS,
                "com.cache.Local.compute:2686");
        LockMetrics reservation = object("java.util.concurrent.ConcurrentHashMap$ReservationNode", "b2", RUN, 40 * MS,
                "com.cache.Local.compute:2686");
        List<LockMetrics> rows = LockSites.group(List.of(node, reservation), RUN);
        assertThat(LockLabels.of(rows).values()).containsExactlyInAnyOrder("Node at Local.compute:2686",
                "ReservationNode at Local.compute:2686");
        LockMetrics otherNode = object("org.other.ConcurrentHashMap$Node", "c3", RUN, 30 * MS, "com.cache.Local.compute:2686");
        assertThat(LockLabels.of(LockSites.group(List.of(node, otherNode), RUN)).values()).containsExactlyInAnyOrder(
                "java.util.concurrent.ConcurrentHashMap$Node at com.cache.Local.compute:2686",
                "org.other.ConcurrentHashMap$Node at com.cache.Local.compute:2686");
    }

    @Test
    void aClassInitialisationAndARowWithoutAStackSayWhatTheyAre() {
        LockMetrics init = new LockMetrics(LockKind.WAIT, "[I", "at app.Server.<init>:48", "main",
                List.of("app.Server.<init>:48"), ParkTally.of(0, 1, 0, 1, MS, MS, 0, MS, true), RUN);
        LockMetrics bare = new LockMetrics(LockKind.PARK, "java.util.concurrent.Semaphore$NonfairSync", "at ?", "main",
                List.of(), ParkTally.of(0, 1, 0, 1, MS, MS, 0, MS, true), RUN);
        assertThat(LockLabels.of(init)).isEqualTo("class initialisation at Server.<init>:48");
        assertThat(LockLabels.of(bare)).startsWith("Semaphore (no stack: ");
    }
}
