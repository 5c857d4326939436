package dev.lockscope.analysis.whatif;

import dev.lockscope.analysis.blame.LockId;
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

    @Test
    void aReplayAsRecordedKeepsTheRecordedRate() {
        LockTrace trace = roundRobin(4, 40, 5, 10, 0);

        // each thread: 40 holds from its first request to its last release, 39 rounds of 40 ms and its own 10 ms
        assertThat(Replay.run(trace, Replay.Change.NONE).operationsPerSecond()).isCloseTo(4 * 40 / 1.570, within(0.01));
    }
}
