package dev.lockscope.analysis.whatif;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.ThreadRef;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Known answers of the replay on traces whose schedule is worked out by hand: threads that each do
 * {@code work} ms outside a lock, then hold it {@code hold} ms, handed over round-robin.
 */
class WhatIfTest {
    private static final long MS = 1_000_000;
    private static final LockId A = LockId.blocker("java.util.concurrent.locks.ReentrantLock$NonfairSync", 0xa);
    private static final LockId B = LockId.monitor("java.util.Hashtable", 0xb);

    /**
     * {@code threads} threads take lock 0 in turn for {@code rounds} rounds, each holding it {@code hold} ms
     * after {@code work} ms of its own; saturated when work &lt; (threads - 1) · hold. With {@code inner}
     * &gt; 0, lock 1 is taken inside lock 0 from 1 ms after its grant for {@code inner} ms.
     */
    private static LockTrace roundRobin(int threads, int rounds, long work, long hold, long inner) {
        List<List<Hold>> holds = new ArrayList<>();
        List<ThreadRef> refs = new ArrayList<>();
        long cycle = Math.max(threads * hold, work + hold);
        for (int k = 0; k < threads; k++) {
            List<Hold> hs = new ArrayList<>();
            long previousRelease = 0;
            for (int i = 0; i < rounds; i++) {
                long grant = (i * cycle + k * hold) * MS;
                long request = i == 0 ? grant : Math.min(grant, previousRelease + work * MS);
                hs.add(new Hold(0, request, grant, grant + hold * MS, "app.Service.outer:10", true, true));
                if (inner > 0) {
                    hs.add(new Hold(1, grant + MS, grant + MS, grant + (1 + inner) * MS, "app.Service.inner:20", true, true));
                }
                previousRelease = grant + hold * MS;
            }
            holds.add(hs);
            refs.add(new ThreadRef(k + 1, k + 1, "worker-" + k));
        }
        long end = holds.stream().flatMap(List::stream).mapToLong(Hold::releaseNanos).max().orElse(0);
        return new LockTrace(List.of(A, B), refs, holds, 0, end, false);
    }

    @Test
    void halvingTheHoldsOfASaturatedLockDoublesThroughput() {
        WhatIf.Prediction p = WhatIf.predict(roundRobin(4, 40, 5, 10, 0), A, null, 0.5);

        assertThat(p.changePct()).isCloseTo(100, within(3.0));
        assertThat(p.parts()).isEqualTo(WhatIf.SLICES);
        assertThat(p.lowPct()).isCloseTo(100, within(10.0));
        assertThat(p.highPct()).isCloseTo(100, within(10.0));
        assertThat(p.confidence()).isEqualTo("high");
        assertThat(p.topLockBefore()).isEqualTo(A);
        assertThat(p.topLockAfter()).isEqualTo(A); // 5 ms of work against 3 × 5 ms of others' holds: still queued
        assertThat(p.holds()).isEqualTo(160);
        assertThat(p.holdsSeenPct()).isEqualTo(100);
    }

    @Test
    void halvingTheHoldsOfALockNobodyWaitsForChangesLittle() {
        // 2 threads, 1 ms holds every 101 ms: a cycle of 100.5 ms instead of 101
        WhatIf.Prediction p = WhatIf.predict(roundRobin(2, 40, 100, 1, 0), A, null, 0.5);

        assertThat(p.changePct()).isBetween(0.0, 1.0);
        assertThat(p.topLockAfter()).isNull();
    }

    @Test
    void slowerHoldsOfASaturatedLockCostThroughput() {
        WhatIf.Prediction p = WhatIf.predict(roundRobin(4, 40, 5, 10, 0), A, null, 2);

        assertThat(p.changePct()).isCloseTo(-50, within(3.0));
    }

    @Test
    void removingTheOuterLockNamesTheInnerLockAsTheNextBottleneck() {
        // the outer lock is held 6 ms, the inner 4 ms of it; 5 ms of own work: 4 threads saturate the outer lock
        // (1 per 6 ms), and without it the inner one (1 per 4 ms): +50%
        LockTrace trace = roundRobin(4, 60, 5, 6, 4);

        WhatIf.Prediction removed = WhatIf.remove(trace, A);

        assertThat(removed.topLockBefore()).isEqualTo(A);
        assertThat(removed.topLockAfter()).isEqualTo(B);
        assertThat(removed.changePct()).isCloseTo(50, within(5.0));
        assertThat(removed.forcedGrants()).isZero();
    }

    @Test
    void aLockBelowThatNobodyWaitedForBoundsTheRemovalFromDeepModesHolds() {
        // as above, but the inner lock was never waited for, so the recording's waits hold only the outer lock;
        // deep mode timed both: the outer held all the time, the inner 4 of every 6 ms (a cap of +50%)
        LockTrace trace = roundRobin(4, 60, 5, 6, 0);
        HoldCeiling outer = new HoldCeiling(new LockId(dev.lockscope.core.LockKind.PARK,
                "java.util.concurrent.locks.ReentrantLock", "77"), "app.Service.outer:10", 99.5);
        HoldCeiling inner = new HoldCeiling(new LockId(dev.lockscope.core.LockKind.MONITOR, "java.util.Hashtable", "b0"),
                "app.Service.lockscope$inner$computeIfAbsent:20", 100.0 * 4 / 6);

        WhatIf.Prediction alone = WhatIf.remove(trace, A);
        WhatIf.Prediction bounded = WhatIf.remove(trace, A, List.of(outer, inner));

        assertThat(alone.topLockAfter()).isNull();
        assertThat(alone.changePct()).isGreaterThan(100); // 4 threads of 11 ms against one hold per 6 ms: +118%
        assertThat(alone.ceilingsChecked()).isFalse();
        assertThat(bounded.ceiling()).as("the outer lock's own deep record is not its bound").isEqualTo(inner);
        assertThat(bounded.bounded()).isTrue();
        assertThat(bounded.changePct()).isCloseTo(50, within(0.01));
        assertThat(bounded.replayChangePct()).isEqualTo(alone.changePct());
        assertThat(bounded.topLockAfter()).isEqualTo(inner.lock());
        assertThat(bounded.highPct()).isLessThanOrEqualTo(50.01);
        // a cap above the replay's answer leaves it as it is
        HoldCeiling loose = new HoldCeiling(inner.lock(), inner.site(), 10);
        WhatIf.Prediction free = WhatIf.remove(trace, A, List.of(outer, loose));
        assertThat(free.bounded()).isFalse();
        assertThat(free.changePct()).isEqualTo(alone.changePct());
        assertThat(HoldCeiling.callerSite("app.Service.lockscope$inner$computeIfAbsent:20")).isEqualTo("app.Service.inner:20");
    }

    @Test
    void aSiteChangesOnlyTheHoldsTakenThere() {
        LockTrace trace = roundRobin(4, 40, 5, 10, 0);

        assertThat(WhatIf.predict(trace, A, "Service.outer", 0.5).changePct()).isCloseTo(100, within(3.0));
        WhatIf.Prediction elsewhere = WhatIf.predict(trace, A, "Other.method", 0.5);
        assertThat(elsewhere.holds()).isZero();
        assertThat(elsewhere.changePct()).isZero();
    }

    @Test
    void theRankingPutsTheBottleneckFirst() {
        List<WhatIf.Prediction> ranking = WhatIf.ranking(roundRobin(4, 40, 5, 10, 3));

        assertThat(ranking).extracting(WhatIf.Prediction::lock).containsExactly(A); // nobody waited for B
        assertThat(ranking.get(0).factor()).isEqualTo(WhatIf.RANKING_FACTOR);
    }

    /**
     * A thread that took another lock twice, 2 ms apart, at start-up (JFR's own thread entering its
     * recorder's monitor) has a rate of lock operations far above the workers': the prediction weighs
     * each thread's speed-up by its operations, so it does not drown the workers' (it predicted +35% for a
     * measured +100% on JDK 25 when the summed rates were compared).
     */
    @Test
    void aShortLivedThreadDoesNotDrownTheWorkersSpeedUp() {
        LockTrace workers = roundRobin(4, 40, 5, 10, 0);
        List<List<Hold>> holds = new ArrayList<>(workers.holds());
        holds.add(List.of(new Hold(1, 0, 0, MS / 10, "jdk.jfr.internal.PlatformRecorder.periodicTask:495", true, true),
                new Hold(1, 2 * MS, 2 * MS, 2 * MS + MS / 10, "jdk.jfr.internal.PlatformRecorder.periodicTask:495", true, true)));
        List<ThreadRef> threads = new ArrayList<>(workers.threads());
        threads.add(new ThreadRef(99, 99, "JFR Periodic Tasks"));
        LockTrace trace = new LockTrace(workers.locks(), threads, holds, 0, workers.endNanos(), false);

        assertThat(WhatIf.predict(trace, A, null, 0.5).changePct()).isCloseTo(100, within(3.0));
    }

    @Test
    void aReplayAsRecordedKeepsTheRecordedRate() {
        LockTrace trace = roundRobin(4, 40, 5, 10, 0);

        // each thread: 40 holds from its first request to its last release, 39 rounds of 40 ms and its own 10 ms
        Replay.Outcome asRecorded = Replay.run(trace, Replay.Change.NONE);
        assertThat(asRecorded.operationsByThread()).containsExactly(40, 40, 40, 40);
        for (double span : asRecorded.spanByThread()) {
            assertThat(span).isCloseTo(1.570e9, within(1e3));
        }
    }
}
