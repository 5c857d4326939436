package dev.lockscope.bench;

import dev.lockscope.analysis.stats.MedianInterval;

import java.util.Arrays;
import java.util.List;

/**
 * The statistics of the J9 park-contention report §4.2 over repeated measurements t_1..t_N: mean µ, σ = sqrt(1/N Σ(t_i − µ)²)
 * (the population form, as the seed writes it), SE = σ/√N, RLE% = 100·SE/µ; plus the median
 * (its interval: {@link MedianInterval}).
 */
public record Stats(int n, double mean, double sigma, double standardError, double median) {
    public static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            return new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        double mean = Arrays.stream(v).sum() / v.length;
        double var = Arrays.stream(v).map(t -> (t - mean) * (t - mean)).sum() / v.length;
        double sigma = Math.sqrt(var);
        return new Stats(v.length, mean, sigma, sigma / Math.sqrt(v.length), MedianInterval.median(values));
    }

    /** RLE% = 100 × SE / µ. */
    public double relativeStandardErrorPct() {
        return 100 * standardError / mean;
    }

    /** The J9 park-contention report §4.2 ThroughputOverhead = 1 − µ_modified / µ_baseline. */
    public static double throughputOverhead(Stats modified, Stats baseline) {
        return 1 - modified.mean / baseline.mean;
    }

    /** 1 − median_modified / median_baseline: the number lockscope's ≤ 1% target is stated in. */
    public static double medianThroughputOverhead(Stats modified, Stats baseline) {
        return 1 - modified.median / baseline.median;
    }

    /**
     * The J9 park-contention report §4.2 ThroughputOverheadMin/Max: min and max of 1 − (µ_mod ± SE_mod)/(µ_base ± SE_base)
     * over the four sign combinations.
     */
    public static double[] throughputOverheadInterval(Stats modified, Stats baseline) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int a = -1; a <= 1; a += 2) {
            for (int b = -1; b <= 1; b += 2) {
                double o = 1 - (modified.mean + a * modified.standardError) / (baseline.mean + b * baseline.standardError);
                lo = Math.min(lo, o);
                hi = Math.max(hi, o);
            }
        }
        return new double[] {lo, hi};
    }

    /** The J9 park-contention report §4.2 MemoryOverhead = µ_modified / µ_baseline. */
    public static double memoryOverhead(Stats modified, Stats baseline) {
        return modified.mean / baseline.mean;
    }

    /** The J9 park-contention report §4.2 MemoryOverheadMin/Max: min and max of (µ_mod ± SE_mod)/(µ_base ± SE_base). */
    public static double[] memoryOverheadInterval(Stats modified, Stats baseline) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int a = -1; a <= 1; a += 2) {
            for (int b = -1; b <= 1; b += 2) {
                double o = (modified.mean + a * modified.standardError) / (baseline.mean + b * baseline.standardError);
                lo = Math.min(lo, o);
                hi = Math.max(hi, o);
            }
        }
        return new double[] {lo, hi};
    }
}
