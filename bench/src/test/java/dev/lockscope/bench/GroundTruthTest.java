package dev.lockscope.bench;

import dev.lockscope.bench.GroundTruth.Acquisition;
import dev.lockscope.bench.GroundTruth.LockTruth;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The workload's own truth on a timeline small enough to check by hand. */
class GroundTruthTest {
    // Lock L: T1 holds at site A 0..90, T2 waits 10..92 and holds at B 92..102, T3 waits 20..105 and holds at A 105..195.
    // T3's wait overlaps A 20..90 (70), B 92..102 (10); the gaps 90..92 and 102..105 are nobody's.
    private static final List<Acquisition> TIMELINE = List.of(
            new Acquisition("L", "siteA", 0, 0, 90),
            new Acquisition("L", "siteB", 10, 92, 102),
            new Acquisition("L", "siteA", 20, 105, 195),
            new Acquisition("M", "other", 50, 50, 60));

    @Test
    void waitHoldAndOwnerTimesPerLock() {
        Map<String, LockTruth> t = GroundTruth.compute(TIMELINE);
        assertThat(t).containsOnlyKeys("L", "M");
        LockTruth l = t.get("L");
        assertThat(l.waitNanos()).isEqualTo(0 + 82 + 85);
        assertThat(l.waits()).isEqualTo(3);
        assertThat(l.holdNanos()).isEqualTo(90 + 10 + 90);
        assertThat(l.meanHoldNanos()).isCloseTo(190 / 3.0, within(1e-9));
        // T2: 10..90 on A (80); T3: 20..90 on A (70) and 92..102 on B (10)
        assertThat(l.ownerNanos()).containsExactlyInAnyOrderEntriesOf(Map.of("siteA", 150L, "siteB", 10L));
        assertThat(l.ownerShare("siteA")).isCloseTo(150 / 167.0, within(1e-9));
        assertThat(l.ownerShare("siteB")).isCloseTo(10 / 167.0, within(1e-9));
        // another lock's holds never count, even where they overlap in time
        assertThat(t.get("M").waitNanos()).isZero();
        assertThat(t.get("M").ownerNanos()).containsExactly(Map.entry("other", 0L));
    }

    @Test
    void formatAndParseRoundTrip() {
        Map<String, LockTruth> t = GroundTruth.compute(TIMELINE);
        String output = "noise before\n" + String.join("\n", GroundTruth.format(t)) + "\nthroughput: 1.0 ops/s\n";
        assertThat(GroundTruth.parse(output)).isEqualTo(t);
    }

    @Test
    void incompleteTruthIsAnError() {
        assertThatThrownBy(() -> GroundTruth.parse("truth L waitNanos 5\ntruth L waits 1\n"))
                .hasMessageContaining("holdNanos");
    }
}
