package dev.lockscope.analysis.stats;

import java.util.List;

/**
 * A distribution-free interval of about 95% for the median of repeated measurements: the order statistics at
 * (n-1)/2 − k and n/2 + k, k = ⌊0.98·√n⌋ (the normal approximation to the binomial), clamped to the sample.
 * With up to 6 values it is the whole range; it narrows as values are added. The overhead harness gives it for
 * its runs, {@code whatif --measure} for its measured changes.
 */
public final class MedianInterval {
    private MedianInterval() {
    }

    /** {@code [low, high]}; NaN for no values. */
    public static double[] of(List<Double> values) {
        if (values.isEmpty()) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        int k = (int) Math.floor(0.98 * Math.sqrt(n));
        return new double[] {sorted[Math.max(0, (n - 1) / 2 - k)], sorted[Math.min(n - 1, n / 2 + k)]};
    }

    /** The median of the values, NaN for none. */
    public static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    }
}
