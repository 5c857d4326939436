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
}
