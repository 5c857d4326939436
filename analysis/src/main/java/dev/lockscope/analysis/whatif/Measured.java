package dev.lockscope.analysis.whatif;

import java.util.List;

/**
 * One lock site measured by experiment ({@code lockscope whatif --measure}), with the replay's prediction for the
 * same site from the experiment's profiled run beside it.
 *
 * @param site               {@code pkg.Class.method:line}, as the report names lock sites
 * @param holdNanos          its average hold in the profiled run
 * @param delayNanos         what each delayed release waited, on average
 * @param sensitivity        mean over the repeats of {@code -ln(T'/T) / ln(1 + delay/hold)}
 * @param low                the lowest repeat's sensitivity
 * @param high               the highest
 * @param halvingPct         throughput change expected from halving the holds, {@code 2^sensitivity - 1}
 * @param throughputChangePct each repeat's measured change with the longer holds, percent
 * @param predicted          the replay's prediction for halving the holds taken in the site's method, from the
 *                           profiled run's recording; null when the replay saw no hold there
 */
public record Measured(String site, double holdNanos, double delayNanos, double sensitivity, double low, double high,
                       double halvingPct, List<Double> throughputChangePct, WhatIf.Prediction predicted) {
    public Measured {
        throughputChangePct = List.copyOf(throughputChangePct);
    }

    /**
     * From the repeats: {@code high} when three or more agree within 0.2, {@code low} with one repeat or when
     * they differ by more than 0.5, else {@code medium}.
     */
    public String confidence() {
        int n = throughputChangePct.size();
        double spread = high - low;
        if (n < 2 || spread > 0.5) {
            return "low";
        }
        return n >= 3 && spread <= 0.2 ? "high" : "medium";
    }

    /** Repeats of the experiment behind it. */
    public int repeats() {
        return throughputChangePct.size();
    }
}
