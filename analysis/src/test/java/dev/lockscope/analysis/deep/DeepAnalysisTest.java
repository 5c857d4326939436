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
        return lock(time, cls, hash, c, shared, runAll, runNonRec, firstLockerNonRec, c.slow() > 0 ? 1 : 0, 1);
    }

    static DeepLock lock(long time, String cls, int hash, DeepCounts c, boolean shared, long runAll, long runNonRec,
                         long firstLockerNonRec, long fatRuns, long flatRuns) {
        return new DeepLock(time, cls, hash, "monitor", c, "t", "A.m:1", shared, runAll, runNonRec, firstLockerNonRec,
                fatRuns, flatRuns);
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
                lock(1, "Own", 1, counts(10_000, 10_000, 0, 0, 10_000, 0), false, 10_000, 10_000, 10_000, 0, 1),
                // 9,000 of 10,000 in the first repetition; 10 contended runs of 10 against 11 flat runs of ~900
                lock(1, "Mostly", 2, counts(10_000, 10_000, 100, 0, 10_000, 0), true, 9_000, 9_000, 9_500, 10, 11),
                // contended in long runs: 5 runs of 800 slow against 5 flat runs of 1,200
                lock(1, "Hot", 3, counts(10_000, 10_000, 4_000, 0, 10_000, 0), true, 100, 100, 2_000, 5, 5),
                // one thread's lock but too few acquisitions to matter
                lock(1, "Rare", 4, counts(999, 999, 0, 0, 999, 0), false, 999, 999, 999, 0, 1));
        assertThat(r.libraryLocks()).extracting(a -> a.lock().lockClass()).containsExactly("Own", "Mostly");
        LibraryLockAdvice own = r.libraryLocks().get(0);
        assertThat(own.recommendation().lockClass).isEqualTo("ReservationLock");
        assertThat(own.pays()).isTrue();
        assertThat(own.sentence()).startsWith("Use ReservationLock: 100.0% of its 10,000 acquisitions in its first repetition, never contended")
                .contains("1.8 ns against synchronized 16.0 ns");
        LibraryLockAdvice mostly = r.libraryLocks().get(1);
        assertThat(mostly.lock().flatToFatRatio()).isEqualTo((9_900 / 11.0) / (100 / 10.0), offset(1e-9));
        assertThat(mostly.recommendation().lockClass).isEqualTo("AsymmetricTasukiLock");
        assertThat(mostly.pays()).isFalse();
        assertThat(mostly.sentence()).contains("would not pay");
    }
}
