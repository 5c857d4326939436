package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The running sums of the J9 park-contention report §3.6–3.7 on hand-built park/unpark sequences; every expected value
 * is worked out by hand in the comments.
 */
class ParkTallyTest {

    @Test
    void threeOverlappingParksGiveThreadTimeAsAreaAndRealTimeAsUnion() {
        // T1 parked 0..30, T2 10..60, T3 40..100 (in seed terms: park = parking event, unpark = return from park)
        ParkTally t = ParkTally.empty(0)
                .park(0)     // now 1
                .park(10)    // +1*10 thread, +10 real; now 2
                .unpark(30)  // +2*20 thread, +20 real; now 1
                .park(40)    // +1*10, +10; now 2
                .unpark(60)  // +2*20, +20; now 1
                .unpark(100); // +1*40, +40; now 0

        assertThat(t.timesParked).isEqualTo(3);
        assertThat(t.parkedNow).isZero();
        assertThat(t.peakParked).isEqualTo(2);
        assertThat(t.threadTimeNanos).isEqualTo(10 + 40 + 10 + 40 + 40).isEqualTo(30 + 50 + 60);
        assertThat(t.realTimeNanos).isEqualTo(100);
        assertThat(t.firstTime).isZero();
        assertThat(t.lastTime).isEqualTo(100);
        assertThat(t.lifeTimeNanos()).isEqualTo(100);
        assertThat(t.collecting).isTrue();
    }

    @Test
    void idleGapCountsNeitherInThreadTimeNorRealTimeButInLifeTime() {
        ParkTally t = ParkTally.empty(0).park(0).unpark(10).park(50).unpark(70);

        assertThat(t.threadTimeNanos).isEqualTo(30);
        assertThat(t.realTimeNanos).isEqualTo(30);
        assertThat(t.lifeTimeNanos()).isEqualTo(70);
        assertThat(t.peakParked).isEqualTo(1);
    }

    @Test
    void parkedNowCountsParksWithoutUnparkAndTheSumsStopAtTheLastEvent() {
        // §3.7.6: a dump in the middle of execution sees threads still parked
        ParkTally t = ParkTally.empty(0).park(0).park(5).unpark(20);

        assertThat(t.timesParked).isEqualTo(2);
        assertThat(t.parkedNow).isEqualTo(1);
        assertThat(t.threadTimeNanos).isEqualTo(5 * 1 + 15 * 2);
        assertThat(t.realTimeNanos).isEqualTo(20);
        assertThat(t.lifeTimeNanos()).isEqualTo(20);
    }

    @Test
    void collectionStartsWithTheParkAfterThresholdParks() {
        // §3.3.1 threshold=2: parks 1 and 2 are counted but not collected; park 3 is Time(1)
        ParkTally t = ParkTally.empty(2)
                .park(0).unpark(10)   // park 1: not collected
                .park(20);            // park 2: not collected, thread stays parked
        assertThat(t.collecting).isFalse();
        assertThat(t.timesParked).isEqualTo(2);
        assertThat(t.parkedNow).isEqualTo(1);
        assertThat(t.peakParked).isZero();
        assertThat(t.lifeTimeNanos()).isZero();

        t = t.park(30)                // park 3 starts collection with 2 parked: Time(1)=30
                .unpark(40)           // +2*10 thread, +10 real
                .unpark(50)           // +1*10, +10
                .park(60)             // +0
                .unpark(70);          // +1*10, +10
        assertThat(t.collecting).isTrue();
        assertThat(t.timesParked).isEqualTo(4);
        assertThat(t.parkedNow).isZero();
        assertThat(t.peakParked).isEqualTo(2);
        assertThat(t.threadTimeNanos).isEqualTo(40);
        assertThat(t.realTimeNanos).isEqualTo(30);
        assertThat(t.firstTime).isEqualTo(30);
        assertThat(t.lifeTimeNanos()).isEqualTo(40);
    }

    @Test
    void thresholdZeroCollectsFromTheFirstPark() {
        ParkTally t = ParkTally.empty(0).park(7);
        assertThat(t.collecting).isTrue();
        assertThat(t.firstTime).isEqualTo(7);
        assertThat(t.peakParked).isEqualTo(1);
    }

    @Test
    void thresholdNeverReachedCollectsNothing() {
        ParkTally t = ParkTally.empty(5).park(0).park(1).unpark(9).unpark(10);
        assertThat(t.collecting).isFalse();
        assertThat(t.timesParked).isEqualTo(2);
        assertThat(t.threadTimeNanos).isZero();
        assertThat(t.realTimeNanos).isZero();
        assertThat(t.peakParked).isZero();
        assertThat(t.lifeTimeNanos()).isZero();
    }

    @Test
    void peakParkedReachesAllThreadsWhenAnUnparkIsProcessedAfterTheNextPark() {
        // §5.3.1: with N threads on one lock, the owner releases and wakes T1, then parks again
        // before T1's return from park is processed: ParkedNow momentarily equals N.
        int n = 4;
        ParkTally t = ParkTally.empty(0);
        for (int i = 0; i < n - 1; i++) {
            t = t.park(i);            // T1..T(N-1) wait while T(N) holds the lock
        }
        t = t.park(n - 1)             // T(N) released, woke T1, and already parks again...
                .unpark(n);           // ...before T1's unpark event is applied
        assertThat(t.peakParked).isEqualTo(n);
        assertThat(t.parkedNow).isEqualTo(n - 1);

        // Processed in the other order the peak stays at N-1.
        ParkTally ordered = ParkTally.empty(0);
        for (int i = 0; i < n - 1; i++) {
            ordered = ordered.park(i);
        }
        ordered = ordered.unpark(n - 1).park(n - 1);
        assertThat(ordered.peakParked).isEqualTo(n - 1);
    }

    @Test
    void unparkWithoutParkNeverDrivesParkedNowNegative() {
        // dynamic attach: a thread parked before the agent started returns from park
        ParkTally t = ParkTally.empty(0).unpark(5).park(10).unpark(20);
        assertThat(t.parkedNow).isZero();
        assertThat(t.timesParked).isEqualTo(1);
        assertThat(t.threadTimeNanos).isEqualTo(10);
    }

    @Test
    void eventsWithAnEarlierTimestampAddNoNegativeTime() {
        // two threads' clocks read out of order: no negative area; the late park's thread was parked since 8
        ParkTally t = ParkTally.empty(0).park(10).park(8).unpark(20);
        assertThat(t.threadTimeNanos).isEqualTo(2 + 2 * 10);
        assertThat(t.realTimeNanos).isEqualTo(10);
        assertThat(t.lastTime).isEqualTo(20);
        assertThat(t.firstTime).isEqualTo(8);
    }

    @Test
    void negativeThresholdIsRejected() {
        assertThatThrownBy(() -> ParkTally.empty(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
