package dev.lockscope.analysis.scale;

import java.nio.file.Path;
import java.util.List;

/**
 * One point of the sweep: its runs combined (mean over the runs that succeeded) and compared with
 * the linear ideal of its CPU series (Guerin et al. §III: "linear throughput increase").
 *
 * @param throughput mean operations per second of the successful runs; NaN when none succeeded
 * @param idealSpeedup n / n₀: the linear ideal
 * @param speedup    Speedup(n) = X(n) / X(n₀), n₀ the fewest threads of the series; NaN when failed
 * @param efficiency Efficiency(n) = Speedup(n) / (n / n₀); NaN when failed
 * @param recording  the first successful run's recording (the one to open), or null
 * @param failures   the failed runs' reasons, one per failed run
 */
public record SweepPoint(int threads, int cpus, double throughput, double idealSpeedup, double speedup, double efficiency,
                         Path recording, List<Path> recordings, List<String> failures, int runs) {
    public SweepPoint {
        recordings = List.copyOf(recordings);
        failures = List.copyOf(failures);
    }

    public boolean ok() {
        return !Double.isNaN(throughput);
    }
}
