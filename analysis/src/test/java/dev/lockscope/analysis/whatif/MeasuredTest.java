package dev.lockscope.analysis.whatif;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class MeasuredTest {
    @Test
    void theDelayIsTheShareOfTheMeanHoldWithinWhatTheAgentCanDelay() {
        // log4j2's FileManager in writeBytes: a 5.78 µs mean hold, 1.5x as long is 2.89 µs more, not milliseconds
        assertThat(Measured.delayNanos(5_780, 1.5)).isEqualTo(2_890);
        assertThat(Measured.delayNanos(68e6, 1.5)).isEqualTo(34_000_000);
        assertThat(Measured.delayNanos(800, 1.5)).as("a sub-microsecond hold: half of it").isEqualTo(400);
        assertThat(Measured.delayNanos(200, 1.5)).as("commons-pool2's deque, 0.2 µs").isEqualTo(100);
        assertThat(Measured.delayNanos(60, 1.5)).as("the agent's least delay").isEqualTo(100);
        assertThat(Measured.delayNanos(5e9, 1.5)).as("the agent's greatest").isEqualTo(1_000_000_000);
        assertThatThrownBy(() -> Measured.delayNanos(0, 1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Measured.delayNanos(5_780, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void itStopsOnceTheIntervalIsNarrowerThanTheChangeOrTheBudgetIsSpent() {
        assertThat(Measured.stop(List.of(-30.0, -31.0), 10)).as("too few runs for an interval").isNull();
        assertThat(Measured.stop(List.of(-30.0, -32.0, -31.0), 10)).isEqualTo(Measured.Outcome.RESOLVED);
        // the interval [-12, +3] is wider than the change -5: one more run
        assertThat(Measured.stop(List.of(-5.0, 3.0, -12.0), 10)).isNull();
        assertThat(Measured.stop(List.of(-5.0, 3.0, -12.0), 3)).isEqualTo(Measured.Outcome.UNRESOLVED);
        // an interval that reaches no change at all is not resolved
        assertThat(Measured.stop(List.of(-10.0, -5.0, 0.0), 10)).isNull();
        assertThat(Measured.stop(List.of(-10.0, -6.0, -4.0), 10)).as("width 6 < 6 is false").isNull();
        assertThat(Measured.stop(List.of(-10.0, -6.5, -5.0), 10)).as("width 5 < 6.5").isEqualTo(Measured.Outcome.RESOLVED);
    }

    @Test
    void aRunNearZeroThroughputBrokeTheWorkload() {
        assertThat(Measured.breaks(0.002)).isTrue();
        assertThat(Measured.breaks(0)).isTrue();
        assertThat(Measured.breaks(Double.NaN)).isTrue();
        assertThat(Measured.breaks(0.67)).isFalse();
    }

    @Test
    void halvingIsExtrapolatedOnlyFromAResolvedChangeWithinAmdahlsBound() {
        // a lock held nearly all the time, its holds 1.5x as long: -31% is s = 0.915, halving +88.6% (bound +90.5%)
        Measured paced = new Measured("A.a:1", 68e6, 0.95, 1.5, 34e6, List.of(-30.0, -32.0, -31.0), Measured.Outcome.RESOLVED, null, null);
        assertThat(paced.sensitivity()).isCloseTo(0.915, within(0.001));
        assertThat(paced.halvingPct()).isCloseTo(88.57, within(0.01));
        assertThat(paced.halvingRefusal()).isNull();
        // held 10% of the run: halving it can give at most 1/(1 - 0.05) - 1 = +5.3%; the -21% measured would say +49.6%
        Measured overstated = new Measured("A.b:1", 5_780, 0.1, 1.5, 2_890, List.of(-20.0, -21.0, -22.0), Measured.Outcome.RESOLVED, null, null);
        assertThat(overstated.halvingPct()).isNaN();
        assertThat(overstated.halvingRefusal()).isEqualTo("refused (2^s - 1): +49.6% is more than Amdahl's bound +5.3% "
                + "for holds 0.5× as long held 10.0% of the time");
        Measured broken = new Measured("A.c:1", 5_780, 0.1, 1.5, 2_890, List.of(-99.8), Measured.Outcome.BROKE, null, null);
        assertThat(broken.sensitivity()).isNaN();
        assertThat(broken.halvingPct()).isNaN();
        assertThat(broken.halvingRefusal()).isEqualTo("not extrapolated: the delay broke the workload");
        Measured unresolved = new Measured("A.d:1", 5_780, 0.1, 1.5, 2_890, List.of(1.0, -3.0, 2.0), Measured.Outcome.UNRESOLVED, null, null);
        assertThat(unresolved.halvingRefusal()).isEqualTo("not extrapolated: could not be resolved");
        assertThat(unresolved.changePct()).isEqualTo(1.0);
        assertThat(unresolved.intervalPct()).containsExactly(-3.0, 2.0);
    }

    @Test
    void aPredictionJustOverTheBoundIsShownAsTheBound() {
        // CI's large-critical-section run: lock 3 held 98.3% of the time, its holds 1.5x as long -33.6% (s = 1.005);
        // 2^s - 1 = +100.7% and the replay's +98.9% are both just over the bound +96.7%: shown as the bound, not refused
        Measured paced = new Measured("A.a:1", 64.8e6, 0.9834, 1.5, 32.7e6, List.of(-33.29, -33.64, -33.65),
                Measured.Outcome.RESOLVED, null, null);
        assertThat(paced.halvingRefusal()).isNull();
        assertThat(paced.rawHalvingPct()).isGreaterThan(100);
        assertThat(paced.halvingPct()).isCloseTo(AmdahlBound.maxChangePct(0.9834, 0.5), within(1e-9));
        assertThat(AmdahlBound.shown(98.9, 0.9834, 0.5)).isCloseTo(96.74, within(0.01));
        assertThat(AmdahlBound.capNote(98.9, 0.9834, 0.5, "the replay")).isEqualTo(" (Amdahl's bound; the replay said +98.9%)");
        assertThat(AmdahlBound.shown(90, 0.9834, 0.5)).as("under the bound: itself").isEqualTo(90);
        assertThat(AmdahlBound.capNote(90, 0.9834, 0.5, "the replay")).isEmpty();
        // more than 5% over the bound in speed-up: refused
        assertThat(AmdahlBound.shown(107, 0.9834, 0.5)).isNaN();
        assertThat(AmdahlBound.refusal(107, 0.9834, 0.5)).startsWith("+107.0% is more than Amdahl's bound +96.7%");
    }

    @Test
    void amdahlsBoundOnShorterHolds() {
        assertThat(AmdahlBound.maxChangePct(1, 0.5)).isCloseTo(100, within(1e-9));
        assertThat(AmdahlBound.maxChangePct(0.5, 0.5)).isCloseTo(100 / 3.0, within(1e-9));
        assertThat(AmdahlBound.maxChangePct(2, 0.5)).as("a share over 1 (objects held in parallel) counts as 1").isCloseTo(100, within(1e-9));
        assertThat(AmdahlBound.refusal(99.4, Double.NaN, 0.5)).isNull();
        assertThat(AmdahlBound.refusal(4125510959.3, Double.NaN, 0.5)).isEqualTo("+4125510959.3% is more than Amdahl's "
                + "bound +100.0% for holds 0.5× as long (the lock held all the time)");
        assertThat(AmdahlBound.refusal(Double.POSITIVE_INFINITY, 1, 0.5)).isEqualTo("not a finite number");
        assertThat(AmdahlBound.refusal(Double.NaN, 1, 2)).isEqualTo("not a finite number");
        assertThat(AmdahlBound.refusal(452, 1, 0)).as("removal is bounded by the lock below, not here").isNull();
        assertThat(AmdahlBound.refusal(-40, 1, 2)).isNull();
    }

    @Test
    void aSlowDownBeyondWhatLongerHoldsCanCostIsNoCheckOfTheReplay() {
        WhatIf.Prediction replay = new WhatIf.Prediction(null, "A.a:", 1.56, false, -32.5, -33, -32, 4, null, null, 90, 1000,
                99, 0, 4_000_000_000L, false, false, null, -32.5);
        // log4j2's file lock in CI's smoke run: holds 1.56x as long, throughput -69.6%; at most -35.9% even if the
        // program ran at the lock's pace alone
        Measured handOffs = new Measured("A.a:1", 3_600, 0.3, 1.5, 2_016, List.of(-69.6, -73.3, -62.8), Measured.Outcome.RESOLVED,
                null, replay);
        assertThat(handOffs.notAReplayCheck()).startsWith("the measured -69.6% is more than holds 1.56× as long cost by themselves "
                + "even at this lock's pace alone (-35.9%)");
        assertThat(handOffs.replayErrorShare()).isNaN();
        // -33% for holds 1.5x as long is what a lock setting the pace costs: the replay's -32.5% is checked by it
        Measured paced = new Measured("A.a:1", 68e6, 0.95, 1.5, 34e6, List.of(-33.0, -34.0, -32.0), Measured.Outcome.RESOLVED,
                null, replay);
        assertThat(paced.notAReplayCheck()).isNull();
        assertThat(paced.replayErrorShare()).isCloseTo(0.5 / 33, within(1e-9));
    }
}
