package dev.lockscope.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class OverheadHarnessTest {
    @Test
    void steadyStateCpuPerOperationIsTheWindowsCpuOverItsOperations() {
        // 2 cores busy while measuring 1M ops/s for 6 s; 20 s of CPU in all, so 8 s before and after the window
        OverheadHarness.Run run = new OverheadHarness.Run("lockCounter", "none", 0, 1e6, 0, 20_000_000_000L, 6, 2.0);
        assertThat(run.windowCpuNanosPerOp()).isCloseTo(2_000, within(1e-9));
        assertThat(run.cpuSecondsOutsideWindow()).isCloseTo(8, within(1e-9));
    }

    @Test
    void aWorkloadsLineNamesTheCoresBusyWhileMeasuring() {
        String out = "warm-up\nthroughput: 123.000 ops/s\n" + ProcessCpu.line(3_000_000_000L, 2_000_000_000L) + "\n";
        assertThat(ProcessCpu.coresIn(out)).isEqualTo(1.5);
        assertThat(ProcessCpu.coresIn("throughput: 1 ops/s\n")).isNaN();
    }

    @Test
    void cpuPerOperationIsPairedWithTheReferenceOfTheSameRepetition() {
        // repetition 1 ran on a busier machine: both configurations paid 50% more, so each pair's ratio stays 1.1
        java.util.List<OverheadHarness.Run> runs = java.util.List.of(
                run("lockscope", 0, 1.10), run("async-profiler", 0, 1.00),
                run("async-profiler", 1, 1.50), run("lockscope", 1, 1.65),
                run("lockscope", 2, 1.10), run("none", 2, 0.90), // no async-profiler run in repetition 2: no pair
                run("async-profiler", 3, Double.NaN), run("lockscope", 3, 1.0)); // a run that read no CPU: no pair
        assertThat(OverheadHarness.pairedCpuRatios(runs, "lockscope", "async-profiler"))
                .hasSize(2).allSatisfy(r -> assertThat(r).isCloseTo(1.1, within(1e-9)));
    }

    /**
     * The harness says when the reference configuration itself changed how the program runs: its CPU per operation below
     * the bare program's, or its throughput moved beyond the bare runs' spread.
     */
    @Test
    void aReferenceThatChangesTheProgramIsNamed() {
        java.util.List<OverheadHarness.Run> slowed = new java.util.ArrayList<>();
        java.util.List<OverheadHarness.Run> cheaper = new java.util.ArrayList<>();
        java.util.List<OverheadHarness.Run> alike = new java.util.ArrayList<>();
        double[] bare = {1_000, 1_040, 980, 1_020, 1_010};
        for (int i = 0; i < bare.length; i++) {
            for (var runs : java.util.List.of(slowed, cheaper, alike)) {
                runs.add(run("none", i, bare[i], 1.0));
            }
            slowed.add(run("async-profiler", i, bare[i] * 0.80, 0.80)); // 20% slower, the same CPU per operation
            cheaper.add(run("async-profiler", i, bare[i] * (i % 2 == 0 ? 0.99 : 1.02), 0.70)); // a quarter less CPU per op
            alike.add(run("async-profiler", i, bare[i] * (i % 2 == 0 ? 0.99 : 1.02), 1.05)); // within the spread, dearer
        }
        assertThat(OverheadHarness.referenceMoved(slowed, "async-profiler"))
                .isEqualTo("async-profiler's throughput -20.00% [-20.00%, -20.00%] against no profiler, paired, beyond the "
                        + "bare runs' spread of 5.9%");
        assertThat(OverheadHarness.referenceMoved(cheaper, "async-profiler"))
                .startsWith("async-profiler's CPU per operation -").endsWith("against no profiler, paired: below the program's own");
        assertThat(OverheadHarness.referenceMoved(alike, "async-profiler")).isNull();
        assertThat(OverheadHarness.referenceMoved(slowed.subList(0, 2), "async-profiler")).as("one repetition").isNull();
    }

    @Test
    void bareRunsThatDifferThreefoldAreCalledUnsteady() {
        java.util.List<OverheadHarness.Run> unsteady = java.util.List.of(run("none", 0, 3_865, 1), run("none", 1, 12_025, 1),
                run("none", 2, 11_835, 1), run("lockscope", 0, 10_000, 1));
        assertThat(OverheadHarness.unsteadyBare(unsteady)).startsWith("its bare runs range from 3865.0 to 12025.0 ops/s (3.1×)");
        java.util.List<OverheadHarness.Run> steady = java.util.List.of(run("none", 0, 1_000, 1), run("none", 1, 1_400, 1),
                run("lockscope", 0, 300, 1)); // a slow profiled run is the profiler's cost, not the machine's
        assertThat(OverheadHarness.unsteadyBare(steady)).isNull();
    }

    /** A run of {@code opsPerSecond} over 5 s with {@code cores} busy while measuring. */
    private static OverheadHarness.Run run(String config, int repeat, double opsPerSecond, double cores) {
        return new OverheadHarness.Run("w", config, repeat, opsPerSecond, 0, 10_000_000_000L, 5, cores);
    }

    /** A run of 1,000 ops/s over 5 s with {@code cores} busy: CPU per operation {@code cores} ms. */
    private static OverheadHarness.Run run(String config, int repeat, double cores) {
        return new OverheadHarness.Run("w", config, repeat, 1_000, 0, 10_000_000_000L, 5, cores);
    }
}
