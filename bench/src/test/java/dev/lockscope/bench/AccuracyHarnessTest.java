package dev.lockscope.bench;

import dev.lockscope.bench.AccuracyHarness.Kind;
import dev.lockscope.bench.AccuracyHarness.Measurement;
import dev.lockscope.bench.GroundTruth.LockTruth;
import dev.lockscope.bench.ToolReadings.Reading;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Errors, medians and the table, from made-up runs. */
class AccuracyHarnessTest {
    @Test
    void errorsAreRelativeForTimesAndAbsoluteForShares() {
        assertThat(AccuracyHarness.errorPct(200, 190)).isCloseTo(-5.0, within(1e-12));
        assertThat(AccuracyHarness.errorPct(200, 230)).isCloseTo(15.0, within(1e-12));
        assertThat(AccuracyHarness.errorPct(0, 5)).isNaN();
        assertThat(AccuracyHarness.errorPct(200, Double.NaN)).isNaN();
        assertThat(AccuracyHarness.errorPoints(0.90, 0.87)).isCloseTo(-3.0, within(1e-9));
        Measurement share = new Measurement("w", "L", "owner share siteA", Kind.SHARE, "lockscope", 0, 0.10, 0.12);
        assertThat(share.error()).isCloseTo(2.0, within(1e-9));
        Measurement wait = new Measurement("w", "L", "wait total", Kind.WAIT, "jfr", 0, 1e9, 0.5e9);
        assertThat(wait.error()).isCloseTo(-50.0, within(1e-9));
    }

    @Test
    void medianIgnoresMissingValues() {
        assertThat(AccuracyHarness.median(List.of(3.0, Double.NaN, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(AccuracyHarness.median(List.of(Double.NaN))).isNaN();
    }

    @Test
    void measurementsOfARun() {
        LockTruth l = new LockTruth(1000, 10, 500, 10, Map.of("siteA", 900L, "siteB", 80L));
        LockTruth m = new LockTruth(40, 2, 64, 2, Map.of("rareSection", 39L));
        Map<String, LockTruth> truth = new java.util.LinkedHashMap<>();
        truth.put("L", l);
        truth.put("rare", m);
        Reading r = new Reading(950, 55, 49, Map.of("siteA", 0.85, "siteB", 0.10));
        List<Measurement> ms = AccuracyHarness.measurements("w", "lockscope", 0, truth, Map.of("L", r));
        assertThat(ms).extracting(Measurement::metric).containsExactly("wait total", "mean hold", "hold from hand-offs",
                "owner share siteA", "owner share siteB", "wait total", "mean hold", "hold from hand-offs");
        assertThat(ms.get(0).error()).isCloseTo(-5.0, within(1e-9));
        assertThat(ms.get(1).truth()).isEqualTo(50);
        assertThat(ms.get(1).error()).isCloseTo(10.0, within(1e-9));
        assertThat(ms.get(2).truth()).isEqualTo(50);
        assertThat(ms.get(2).error()).isCloseTo(-2.0, within(1e-9));
        assertThat(ms.get(3).error()).isCloseTo(-5.0, within(1e-9)); // 85% vs 90%
        assertThat(ms.get(4).error()).isCloseTo(2.0, within(1e-9));  // 10% vs 8%
        assertThat(ms.get(5).reported()).isNaN();                    // the tool did not see lock "rare"
    }

    @Test
    void tableHasMediansAndSaysWhatOtherToolsCannotReport() {
        List<Measurement> ms = new ArrayList<>();
        double[] lockscopeWaits = {95, 99, 120};
        for (int r = 0; r < 3; r++) {
            ms.add(new Measurement("two-sites-juc", "L", "wait total", Kind.WAIT, "lockscope", r, 100e6, lockscopeWaits[r] * 1e6));
            ms.add(new Measurement("two-sites-juc", "L", "wait total", Kind.WAIT, "jfr", r, 100e6, 90e6));
            ms.add(new Measurement("two-sites-juc", "L", "wait total", Kind.WAIT, "async-profiler", r, 100e6, 80e6));
            ms.add(new Measurement("two-sites-juc", "L", "mean hold", Kind.HOLD, "lockscope", r, 5e6, 5.5e6));
            ms.add(new Measurement("two-sites-juc", "L", "mean hold", Kind.HOLD, "jfr", r, 5e6, Double.NaN));
            ms.add(new Measurement("two-sites-juc", "L", "owner share siteA", Kind.SHARE, "lockscope", r, 0.9, 0.88));
            ms.add(new Measurement("two-sites-juc", "L", "owner share siteA", Kind.SHARE, "async-profiler", r, 0.9, Double.NaN));
        }
        String md = AccuracyHarness.markdown(List.of(), ms, 3, List.of("frequent-sync under jfr (repeat 1): exit 1"));
        assertThat(md).startsWith("## Accuracy\n");
        assertThat(md).contains("| two-sites-juc | L | wait total | 100.0 ms | 99.0 ms | -1.0% | 100.0 ms | 90.0 ms | -10.0% | 100.0 ms | 80.0 ms | -20.0% |");
        assertThat(md).contains("| two-sites-juc | L | mean hold | 5.00 ms | 5.50 ms | +10.0% | 5.00 ms | n/a (no hold-time estimate) | | no run | | |");
        assertThat(md).contains("| two-sites-juc | L | owner share siteA | 90.0% | 88.0% | -2.0 pp | no run | | | 90.0% | n/a (no owner information) | |");
        assertThat(md).contains("- frequent-sync under jfr (repeat 1): exit 1");
        assertThat(md).contains("| two-sites-juc | L | wait total | lockscope | 2 | 100000000 ns | 120000000 ns | +20.0% |");
    }
}
