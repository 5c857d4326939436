package dev.lockscope.analysis.deep;

import dev.lockscope.analysis.model.DeepCounts;
import dev.lockscope.analysis.model.DeepInfo;
import dev.lockscope.analysis.model.DeepLock;
import dev.lockscope.analysis.model.DeepSite;
import dev.lockscope.analysis.model.RecordingInfo;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

class DeepAnalysisTest {
    static DeepCounts counts(long gets, long nonRec, long slow, long rec, long sections, long holdNanos) {
        long[] histogram = new long[8];
        histogram[2] = sections;
        return new DeepCounts(gets, nonRec, slow, rec, 0, 0, 0, sections, holdNanos, holdNanos, histogram, slow / 2, sections);
    }

    static DeepLock lock(long time, String cls, int hash, DeepCounts c, boolean shared, long runAll, long runNonRec,
                         long firstLockerNonRec) {
        // each slow acquisition and its release in one fat section, the other operations in one flat section
        return lock(time, cls, hash, c, shared, runAll, runNonRec, firstLockerNonRec, c.slow() > 0
                ? new DeepLock.Sections(1, 1, 2 * c.slow(), 2 * (c.gets() - c.slow()))
                : new DeepLock.Sections(0, 1, 0, 2 * c.gets()));
    }

    static DeepLock lock(long time, String cls, int hash, DeepCounts c, boolean shared, long runAll, long runNonRec,
                         long firstLockerNonRec, DeepLock.Sections sections) {
        return new DeepLock(time, cls, hash, "monitor", c, "t", "A.m:1", shared, runAll, runNonRec, firstLockerNonRec,
                sections);
    }

    private static DeepResult analyse(Object... events) {
        DeepAnalysis a = new DeepAnalysis();
        for (Object e : events) {
            if (e instanceof DeepLock l) {
                a.deepLock(l);
            } else if (e instanceof DeepSite s) {
                a.deepSite(s);
            } else if (e instanceof DeepInfo i) {
                a.deepInfo(i);
            }
        }
        a.finish(new RecordingInfo(Path.of("r.jfr"), 0, 1_000_000_000L, Map.of()));
        return a.result();
    }

    @Test
    void noDeepEventsNoResult() {
        assertThat(analyse()).isNull();
    }

    @Test
    void theLatestTotalsOfEveryObjectCount() {
        DeepResult r = analyse(
                lock(1, "A", 1, counts(10, 10, 0, 0, 10, 100), false, 10, 10, 10),
                lock(2, "A", 1, counts(30, 30, 2, 0, 30, 300), true, 17, 17, 20), // the same object, later: replaces
                lock(2, "B", 7, counts(5, 4, 0, 1, 4, 5_000_000), false, 5, 4, 4));
        assertThat(r.locks()).hasSize(2);
        assertThat(r.locks().get(0).lockClass()).as("most slow first").isEqualTo("A");
        DeepCounts all = r.totals();
        assertThat(all.gets()).isEqualTo(35);
        assertThat(all.slow()).isEqualTo(2);
        assertThat(all.blocked()).isEqualTo(1);
        assertThat(all.missPct()).isEqualTo(100.0 * 2 / 34, offset(1e-9));
        assertThat(r.locks().get(1).counts().utilPct(r.durationNanos())).isEqualTo(0.5, offset(1e-9));
        assertThat(r.locks().get(1).counts().avgHoldNanos()).isEqualTo(1_250_000);
    }

    /** Kawachiya's worked example of thread locality: a first repetition of 17 in a lock sequence of 30 is 56.7%. */
    @Test
    void firstRepetitionRatioOfTheDissertationsExample() {
        DeepResult r = analyse(lock(1, "A", 1, counts(30, 30, 0, 0, 30, 0), true, 17, 17, 20));
        LockBehaviour b = r.behaviour();
        assertThat(b.firstRepetitionPct()).isEqualTo(56.666, offset(0.001));
        assertThat(b.objectsLockedByOthers()).isEqualTo(1);
        assertThat(b.reserveUntilSecondThreadHitPct()).isEqualTo(100.0 * 17 / 30, offset(1e-9));
        assertThat(b.reserveForeverHitPct()).isEqualTo(100.0 * 20 / 30, offset(1e-9));
        assertThat(b.sentences()).anyMatch(s -> s.startsWith("56.7% of acquisitions"));
    }

    /**
     * Table 4.3 (contention transience) per group, with the dissertation's eSuite nowait row as the known
     * answer: 14 contended monitors, 10,575 operations, 1.21 fat sections per object, 24.41 operations per
     * fat section, 327.74 per flat one. Monitors never in a fat section and java.util.concurrent locks are
     * not in the table; a monitor with wait/notify is in the wait group.
     */
    @Test
    void contentionTransiencePerGroupAsInTable43() {
        java.util.List<Object> events = new java.util.ArrayList<>();
        for (int i = 0; i < 14; i++) { // 17 fat sections of 415 operations, 31 flat ones of 10,160, in all
            DeepLock.Sections s = i == 0 ? new DeepLock.Sections(4, 5, 38, 10_160) : new DeepLock.Sections(1, 2, 29, 0);
            events.add(lock(1, "N" + i, i, counts(100, 100, 1, 0, 100, 0), true, 1, 1, 1, s));
        }
        DeepCounts withWaits = new DeepCounts(10, 10, 1, 0, 2, 2, 0, 12, 0, 0, new long[8], 1, 12);
        events.add(lock(1, "W", 100, withWaits, true, 1, 1, 1, new DeepLock.Sections(3, 3, 12, 12)));
        events.add(lock(1, "Calm", 101, counts(100, 100, 0, 0, 100, 0), true, 1, 1, 1, new DeepLock.Sections(0, 1, 0, 200)));
        events.add(new DeepLock(1, "Juc", 102, "juc", counts(100, 100, 5, 0, 100, 0), "t", "A.m:1", true, 1, 1, 1,
                new DeepLock.Sections(5, 6, 10, 190)));
        LockBehaviour b = analyse(events.toArray()).behaviour();
        assertThat(b.contention()).extracting(LockBehaviour.ContentionGroup::group).containsExactly("nowait", "wait");
        LockBehaviour.ContentionGroup nowait = b.contention().get(0);
        assertThat(nowait.heavyObjects()).isEqualTo(14);
        assertThat(nowait.syncOps()).isEqualTo(10_575);
        assertThat(nowait.fatSectionsPerObject()).isEqualTo(1.21, offset(0.005));
        assertThat(nowait.opsPerFatSection()).isEqualTo(24.41, offset(0.005));
        assertThat(nowait.opsPerFlatSection()).isEqualTo(327.74, offset(0.005));
        LockBehaviour.ContentionGroup wait = b.contention().get(1);
        assertThat(wait.heavyObjects()).isEqualTo(1);
        assertThat(wait.opsPerFatSection()).isEqualTo(4.0);
        assertThat(b.sentences()).anyMatch(s -> s.startsWith("nowait group: 14 monitors contended (10,575 synchronisation operations)")
                && s.contains("(13.4x): contention is transient"));
        assertThat(b.sentences()).anyMatch(s -> s.startsWith("wait group: 1 monitor contended") && s.contains("contention lasts"));
    }

    @Test
    void recursionCountsInOneRatioAndNotTheOther() {
        // one thread: 4 outermost acquisitions, each with 3 recursive ones inside
        DeepResult r = analyse(lock(1, "R", 3, counts(16, 4, 0, 12, 4, 0), false, 16, 4, 4));
        LockBehaviour b = r.behaviour();
        assertThat(b.firstRepetitionPct()).isEqualTo(100.0);
        assertThat(b.firstRepetitionNonRecursivePct()).isEqualTo(100.0);
        // Table 6.2's hit ratio counts outermost acquisitions against all: recursive ones are not hits
        assertThat(b.reserveForeverHitPct()).isEqualTo(25.0);
    }

    /**
     * Library-lock advice on locks of known locality and transience: one thread's lock for life gets the
     * reservation lock (it pays: docs/locks.md's PrimitiveTest row); a lock mostly of one thread with
     * transient contention fits the asymmetric tasuki lock, which does not pay on x86; a lock with long
     * contended runs, a lock used for wait/notify, and one of too few acquisitions get no advice.
     */
    @Test
    void libraryLockAdviceFollowsLocalityAndTransience() {
        DeepResult r = analyse(
                // one thread, 10,000 acquisitions, never contended: first repetition 100%
                lock(1, "Own", 1, counts(10_000, 10_000, 0, 0, 10_000, 0), false, 10_000, 10_000, 10_000,
                        new DeepLock.Sections(0, 1, 0, 20_000)),
                // 9,000 of 10,000 in the first repetition; 10 fat sections of 20 operations against 11 flat ones of 1,800
                lock(1, "Mostly", 2, counts(10_000, 10_000, 100, 0, 10_000, 0), true, 9_000, 9_000, 9_500,
                        new DeepLock.Sections(10, 11, 200, 19_800)),
                // contended in long sections: 5 fat sections of 1,600 operations against 5 flat ones of 2,400
                lock(1, "Hot", 3, counts(10_000, 10_000, 4_000, 0, 10_000, 0), true, 100, 100, 2_000,
                        new DeepLock.Sections(5, 5, 8_000, 12_000)),
                // one thread's lock but too few acquisitions to matter
                lock(1, "Rare", 4, counts(999, 999, 0, 0, 999, 0), false, 999, 999, 999, new DeepLock.Sections(0, 1, 0, 1_998)));
        assertThat(r.libraryLocks()).extracting(a -> a.lock().lockClass()).containsExactly("Own", "Mostly");
        LibraryLockAdvice own = r.libraryLocks().get(0);
        assertThat(own.recommendation().lockClass).isEqualTo("ReservationLock");
        assertThat(own.pays()).isTrue();
        assertThat(own.sentence()).startsWith("Use ReservationLock: 100.0% of its 10,000 acquisitions in its first repetition, never contended")
                .contains("1.8 ns against synchronized 16.0 ns");
        LibraryLockAdvice mostly = r.libraryLocks().get(1);
        assertThat(mostly.lock().flatToFatRatio()).isEqualTo((19_800 / 11.0) / (200 / 10.0), offset(1e-9));
        assertThat(mostly.recommendation().lockClass).isEqualTo("AsymmetricTasukiLock");
        assertThat(mostly.pays()).isFalse();
        assertThat(mostly.sentence()).contains("would not pay");
    }
}
