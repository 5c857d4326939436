package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The derived metrics of the J9 park-contention report §3.7.10–3.7.15 on hand-built tallies. */
class LockMetricsTest {
    private static final double EXACT = 1e-9;

    private static LockMetrics metrics(ParkTally t, long totalExecutionNanos) {
        return new LockMetrics(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync", "1a2b",
                "main", List.of("a.B.c:1"), t, totalExecutionNanos);
    }

    @Test
    void allFifteenMetricsOfOneBlocker() {
        // parks 0..30, 10..60, 40..100: thread-time 140, real-time 100, life 100, 3 parks
        ParkTally t = ParkTally.empty(0).park(0).park(10).unpark(30).park(40).unpark(60).unpark(100);
        LockMetrics m = metrics(t, 200);

        assertThat(m.timesParked()).isEqualTo(3);
        assertThat(m.parkedNow()).isZero();
        assertThat(m.peakParked()).isEqualTo(2);
        assertThat(m.threadTimeNanos()).isEqualTo(140);
        assertThat(m.realTimeNanos()).isEqualTo(100);
        assertThat(m.totalWaitNanos()).isEqualTo(140);
        assertThat(m.avgParkNanos()).isCloseTo(140.0 / 3, within(EXACT));
        assertThat(m.avgHoldNanos()).isCloseTo(100.0 / 3, within(EXACT));
        assertThat(m.realTimeUtilPct()).isCloseTo(50.0, within(EXACT));
        assertThat(m.threadTimeUtilPct()).isCloseTo(70.0, within(EXACT));
        assertThat(m.realLifeTimeUtilPct()).isCloseTo(100.0, within(EXACT));
        assertThat(m.threadLifeTimeUtilPct()).isCloseTo(140.0, within(EXACT));
    }

    @Test
    void averageHoldTimeDividesByUnparksNotParks() {
        // §3.7.11: 2 parks, 1 still parked -> 1 unpark; real-time 20
        ParkTally t = ParkTally.empty(0).park(0).park(5).unpark(20);
        LockMetrics m = metrics(t, 1000);
        assertThat(m.avgHoldNanos()).isCloseTo(20.0, within(EXACT));
        assertThat(m.avgParkNanos()).isCloseTo(35.0 / 2, within(EXACT));
    }

    @Test
    void lifeTimeUtilisationUsesOnlyTheCollectedSpan() {
        // §3.7.14/15: idle gap 10..50 is inside Time(n)-Time(1) = 70
        ParkTally t = ParkTally.empty(0).park(0).unpark(10).park(50).unpark(70);
        LockMetrics m = metrics(t, 1000);
        assertThat(m.realLifeTimeUtilPct()).isCloseTo(100.0 * 30 / 70, within(EXACT));
        assertThat(m.threadLifeTimeUtilPct()).isCloseTo(100.0 * 30 / 70, within(EXACT));
        assertThat(m.realTimeUtilPct()).isCloseTo(3.0, within(EXACT));
    }

    @Test
    void zeroDenominatorsGiveZeroNotNaN() {
        LockMetrics empty = metrics(ParkTally.empty(0), 0);
        assertThat(empty.avgParkNanos()).isZero();
        assertThat(empty.avgHoldNanos()).isZero();
        assertThat(empty.realTimeUtilPct()).isZero();
        assertThat(empty.threadLifeTimeUtilPct()).isZero();

        // every park still open: no unpark to divide the hold time by
        LockMetrics allParked = metrics(ParkTally.empty(0).park(0).park(10), 100);
        assertThat(allParked.avgHoldNanos()).isZero();
        assertThat(allParked.realTimeNanos()).isEqualTo(10);
    }

    @Test
    void rankingIsByTotalWaitThenParksThenClassThenHash() {
        ParkTally big = ParkTally.empty(0).park(0).unpark(100);
        ParkTally small = ParkTally.empty(0).park(0).unpark(10);
        ParkTally smallMoreParks = ParkTally.empty(0).park(0).unpark(5).park(5).unpark(10);
        LockMetrics a = new LockMetrics(LockKind.PARK, "B", "2", "t", List.of(), small, 1);
        LockMetrics b = new LockMetrics(LockKind.PARK, "B", "1", "t", List.of(), small, 1);
        LockMetrics c = new LockMetrics(LockKind.MONITOR, "A", "9", "t", List.of(), small, 1);
        LockMetrics d = new LockMetrics(LockKind.PARK, "Z", "1", "t", List.of(), big, 1);
        LockMetrics e = new LockMetrics(LockKind.PARK, "Z", "0", "t", List.of(), smallMoreParks, 1);

        assertThat(LockTable.ranked(List.of(a, b, c, d, e))).containsExactly(d, e, c, b, a);
    }
}
