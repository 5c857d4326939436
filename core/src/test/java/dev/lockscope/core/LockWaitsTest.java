package dev.lockscope.core;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LockWaitsTest {

    private static LockWaits waits(long threshold) {
        return new LockWaits(LockKind.PARK, "L", "1", threshold);
    }

    /** The tally of the waits, or an empty one when the threshold was not reached. */
    private static ParkTally tally(LockWaits w, long threshold) {
        LockMetrics m = w.metrics(1);
        return m == null ? ParkTally.empty(threshold) : m.tally();
    }

    private static ParkTally replay(long threshold, long... beginEnd) {
        LockWaits w = waits(threshold);
        for (int i = 0; i < beginEnd.length; i += 2) {
            w.add(beginEnd[i], beginEnd[i + 1], "t" + i / 2, List.of());
        }
        return tally(w, threshold);
    }

    /** A first wait recorded without a stack shows the earliest one with a stack, thread and stack together. */
    @Test
    void aFirstWaitWithoutAStackShowsTheEarliestOneWithAStack() {
        LockWaits w = waits(0);
        w.add(0, 100, "a", List.of());
        w.add(200, 300, "c", List.of("C.late:3"));
        w.add(50, 150, "b", List.of("B.run:2"));
        LockMetrics m = w.metrics(1);
        assertThat(m.firstThread()).isEqualTo("b");
        assertThat(m.firstFrames()).containsExactly("B.run:2");
        LockWaits stacked = waits(0);
        stacked.add(0, 100, "a", List.of("A.run:1"));
        stacked.add(50, 150, "b", List.of("B.run:2"));
        assertThat(stacked.metrics(1).firstThread()).isEqualTo("a");
    }

    @Test
    void metricsNowLeavesLaterArrivalsTheirExactOrder() {
        LockWaits live = waits(0);
        live.add(0, 100, "a", List.of());
        live.add(50, 300, "b", List.of());
        LockMetrics now = live.metricsNow(1);
        assertThat(now.tally()).isEqualTo(replay(0, 0, 100, 50, 300));
        assertThat(live.heldPoints()).as("nothing released").isEqualTo(4);
        live.add(20, 60, "c", List.of()); // began before points the snapshot replayed
        assertThat(tally(live, 0)).isEqualTo(replay(0, 0, 100, 50, 300, 20, 60));
    }

    @Test
    void replayBeforeReleasesOnlyTheOlderPoints() {
        LockWaits live = waits(0);
        live.add(0, 100, "a", List.of());
        live.add(200, 300, "b", List.of());
        live.replayBefore(150);
        assertThat(live.heldPoints()).isEqualTo(2);
        live.add(180, 250, "c", List.of()); // after the released points: still exact
        assertThat(tally(live, 0)).isEqualTo(replay(0, 0, 100, 200, 300, 180, 250));
    }

    @Test
    void waitsThatOnlyTouchDoNotOverlap() {
        // at t=10 the end is applied before the begin
        ParkTally t = replay(0, 0, 10, 10, 20);
        assertThat(t.peakParked).isEqualTo(1);
        assertThat(t.threadTimeNanos).isEqualTo(20);
        assertThat(t.realTimeNanos).isEqualTo(20);
        assertThat(t.timesParked).isEqualTo(2);
    }

    @Test
    void waitsThatOverlapByOneNanosecondDo() {
        ParkTally t = replay(0, 0, 10, 9, 20);
        assertThat(t.peakParked).isEqualTo(2);
        assertThat(t.threadTimeNanos).isEqualTo(21);
        assertThat(t.realTimeNanos).isEqualTo(20);
    }

    @Test
    void zeroLengthWaitEndsAfterItsOwnBegin() {
        // regression: the end used to sort before its own begin and the wait stayed "parked now"
        ParkTally t = replay(0, 5, 5, 0, 10);
        assertThat(t.parkedNow).isZero();
        assertThat(t.timesParked).isEqualTo(2);
        assertThat(t.peakParked).isEqualTo(2);
        assertThat(t.threadTimeNanos).isEqualTo(10);
        assertThat(t.realTimeNanos).isEqualTo(10);
    }

    @Test
    void simultaneousBeginsAllCount() {
        ParkTally t = replay(0, 0, 10, 0, 10, 0, 4);
        assertThat(t.peakParked).isEqualTo(3);
        assertThat(t.threadTimeNanos).isEqualTo(24);
        assertThat(t.realTimeNanos).isEqualTo(10);
        assertThat(t.lifeTimeNanos()).isEqualTo(10);
    }

    @Test
    void insertionOrderDoesNotMatter() {
        ParkTally a = replay(0, 40, 100, 0, 30, 10, 60);
        ParkTally b = replay(0, 0, 30, 10, 60, 40, 100);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.threadTimeNanos).isEqualTo(140);
        assertThat(a.realTimeNanos).isEqualTo(100);
    }

    @Test
    void openWaitsStayParkedNow() {
        ParkTally t = replay(0, 0, LockWaits.OPEN, 5, 15);
        assertThat(t.parkedNow).isEqualTo(1);
        assertThat(t.timesParked).isEqualTo(2);
        assertThat(t.threadTimeNanos).isEqualTo(5 + 2 * 10);
        assertThat(t.realTimeNanos).isEqualTo(15);
        assertThat(t.lifeTimeNanos()).isEqualTo(15);
    }

    @Test
    void thresholdCountsParksInBeginOrder() {
        // threshold 1: the park at 0 is not collected, the park at 5 starts collection with 2 parked
        ParkTally t = replay(1, 5, 20, 0, 10);
        assertThat(t.timesParked).isEqualTo(2);
        assertThat(t.firstTime).isEqualTo(5);
        assertThat(t.peakParked).isEqualTo(2);
        assertThat(t.threadTimeNanos).isEqualTo(2 * 5 + 10);
        assertThat(t.realTimeNanos).isEqualTo(15);
    }

    @Test
    void peakParkedRaceAppearsWhenTheNextParkPrecedesTheReturnFromPark() {
        // §5.3.1 with 3 threads: T1 waits 0..3, T2 from 1, T3 (the releaser) parks again at 2,
        // before T1's return from park at 3
        ParkTally t = replay(0, 0, 3, 1, LockWaits.OPEN, 2, LockWaits.OPEN);
        assertThat(t.peakParked).isEqualTo(3);
        assertThat(t.parkedNow).isEqualTo(2);
    }

    @Test
    void emptyReplayIsAnEmptyTally() {
        assertThat(waits(0).metrics(1)).isNull();
    }

    @Test
    void firstMonitoredWaitIsTheOneThatReachesTheThresholdInBeginOrder() {
        LockWaits w = waits(1);
        w.begin(20, 0, "late", List.of("c.L.late:1"));
        w.begin(10, 2, "second", List.of("c.L.second:1"));
        w.begin(10, 1, "first", List.of("c.L.first:1"));
        LockMetrics m = w.metrics(100);
        assertThat(m.firstThread()).isEqualTo("second");
        assertThat(m.firstFrames()).containsExactly("c.L.second:1");
        assertThat(m.parkedNow()).isEqualTo(3);
    }

    @Test
    void pointsReplayedEarlyGiveTheSameTallyWhileTheyArriveInOrder() {
        LockWaits early = waits(0);
        long[][] waits = {{0, 30}, {10, 60}, {40, 100}};
        for (long[] x : waits) {
            early.begin(x[0], x[0], "t", List.of());
            early.end(x[0], x[1]);
            while (early.heldPoints() > 2) {
                early.replayEarliest();
            }
        }
        assertThat(tally(early, 0)).isEqualTo(replay(0, 0, 30, 10, 60, 40, 100));
    }

    /** Thread-time is the sum of the waits, real-time their union, peak the largest overlap. */
    @Property(tries = 300)
    void replayAgreesWithDirectGeometry(@ForAll @Size(max = 12) List<@IntRange(min = 0, max = 50) Integer> begins,
                                        @ForAll @Size(max = 12) List<@IntRange(min = 0, max = 20) Integer> lengths) {
        LockWaits r = waits(0);
        List<long[]> waits = new ArrayList<>();
        for (int i = 0; i < Math.min(begins.size(), lengths.size()); i++) {
            long b = begins.get(i);
            long e = b + lengths.get(i);
            r.add(b, e, "t", List.of());
            waits.add(new long[] {b, e});
        }
        ParkTally t = tally(r, 0);

        long sum = 0;
        for (long[] w : waits) {
            sum += w[1] - w[0];
        }
        long union = 0;
        int peak = 0;
        for (long x = 0; x <= 70; x++) {
            int covering = 0;
            for (long[] w : waits) {
                if (w[0] <= x && x < w[1]) {
                    covering++;
                }
            }
            union += covering > 0 ? 1 : 0;
            peak = Math.max(peak, covering);
        }
        // zero-length waits still park once
        for (long[] w : waits) {
            if (w[0] == w[1]) {
                peak = Math.max(peak, 1);
            }
        }
        assertThat(t.timesParked).isEqualTo(waits.size());
        assertThat(t.threadTimeNanos).isEqualTo(sum);
        assertThat(t.realTimeNanos).isEqualTo(union);
        assertThat(t.parkedNow).isZero();
        assertThat(t.peakParked).isGreaterThanOrEqualTo(peak);
        if (waits.stream().noneMatch(w -> w[0] == w[1])) {
            assertThat(t.peakParked).isEqualTo(peak);
        }
    }

    /**
     * Replayed as soon as each point arrives, in any order (a reader whose window was too short): thread-time is
     * still the sum of the waits.
     */
    @Property(tries = 300)
    void threadTimeStaysTheSumOfTheWaitsWhateverTheOrder(@ForAll @Size(max = 12) List<@IntRange(min = 0, max = 50) Integer> begins,
                                                         @ForAll @Size(max = 12) List<@IntRange(min = 0, max = 20) Integer> lengths,
                                                         @ForAll boolean endsFirst) {
        LockWaits r = waits(0);
        long sum = 0;
        for (int i = 0; i < Math.min(begins.size(), lengths.size()); i++) {
            long b = begins.get(i);
            long e = b + lengths.get(i);
            r.begin(b, i, "t", List.of());
            if (!endsFirst) {
                r.replayEarliest();
            }
            r.end(b, e);
            while (r.heldPoints() > (endsFirst ? 1 : 0)) {
                r.replayEarliest();
            }
            sum += e - b;
        }
        ParkTally t = tally(r, 0);
        assertThat(t.threadTimeNanos).isEqualTo(sum);
        assertThat(t.parkedNow).isZero();
    }
}
