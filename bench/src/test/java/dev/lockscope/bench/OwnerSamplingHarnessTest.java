package dev.lockscope.bench;

import dev.lockscope.bench.OwnerSamplingHarness.Run;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The curve's table from made-up runs: errors as absolute points, costs against the bare runs. */
class OwnerSamplingHarnessTest {
    @Test
    void eachPeriodIsOneRowWithItsErrorAndCostAgainstBare() {
        List<Run> runs = List.of(
                new Run("none", 0, List.of(), 100, 10e6),
                new Run("none", 1, List.of(), 100, 10e6),
                new Run("20ms", 0, List.of(-4.0, 4.0), 90, 12e6),
                new Run("20ms", 1, List.of(2.0, -2.0), 90, 12e6),
                new Run("1ms", 0, List.of(0.5, -0.5), 80, 15e6));
        String md = OwnerSamplingHarness.markdown(runs, 2, List.of("5ms (repeat 0): exit 1"), false);
        assertThat(md).contains("| bare |  |  | 100.0 ops/s |  | 10.00 ms |  |");
        // |errors| 4, 4, 2, 2: median 3.0, max 4.0
        assertThat(md).contains("| 20ms | 3.0 | 4.0 | 90.0 ops/s | -10.0% | 12.00 ms | +20.0% |");
        assertThat(md).contains("| 1ms | 0.5 | 0.5 | 80.0 ops/s | -20.0% | 15.00 ms | +50.0% |");
        assertThat(md.indexOf("| 1ms |")).as("rows in the order of the periods").isLessThan(md.indexOf("| 20ms |"));
        assertThat(md).doesNotContain("| 50ms |").contains("- 5ms (repeat 0): exit 1");
    }

    @Test
    void theWorkloadsHoldersCompute() {
        assertThat(OwnerSamplingHarness.workloadArgs(false)).contains("sync", "--busy").endsWith("--seconds", "5");
        assertThat(OwnerSamplingHarness.workloadArgs(true)).endsWith("--seconds", "1");
    }
}
