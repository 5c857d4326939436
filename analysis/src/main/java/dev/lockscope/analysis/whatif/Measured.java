package dev.lockscope.analysis.whatif;

import dev.lockscope.analysis.stats.MedianInterval;

import java.util.List;
import java.util.Locale;

/**
 * One lock site measured by experiment ({@code lockscope whatif --measure}): its holds lengthened to
 * {@code factor}× by delaying each release (the lock held) by {@code factor - 1} of its mean hold, each delayed
 * run compared with the mean of the runs as it is just before and after it; with the replay's prediction for the
 * same site from the experiment's profiled run beside it.
 *
 * @param site       {@code pkg.Class.method:line}, as the report names lock sites
 * @param holdNanos  its mean hold, every hold at the site timed (deep mode) in the hold-timing run
 * @param heldShare  the share (0..1) of the time its lock was in use that its holds took, for {@link AmdahlBound};
 *                   NaN when not known
 * @param factor     the holds were lengthened to this many times their mean (1.5: by half)
 * @param delayNanos what each delayed release waited, on average over the delayed runs
 * @param changesPct each delayed run's throughput change, percent
 * @param outcome    whether the change was resolved, could not be, or the delay broke the workload
 * @param predicted  the replay's prediction for halving the holds taken in the site's method, from the profiled
 *                   run's recording; null when the replay saw no hold there
 * @param lengthened the replay's prediction for what was measured, the same holds {@link #lengthenedBy} as long:
 *                   the check of the replay against the experiment; null when the replay saw no hold there
 */
public record Measured(String site, double holdNanos, double heldShare, double factor, double delayNanos,
                       List<Double> changesPct, Outcome outcome, WhatIf.Prediction predicted,
                       WhatIf.Prediction lengthened) {
    /** Delayed runs before the interval can say anything: its ends are the lowest and highest of so few. */
    public static final int MIN_RUNS = 3;
    /** A delayed run below this share of the throughput as it is broke the workload: throughput near zero. */
    public static final double BROKEN_RATIO = 0.1;
    /**
     * What the agent can delay a release by ({@code delayRelease}: 100 ns to 1 s). 100 ns, not 1 µs: a lock held
     * 0.2 µs (commons-pool2's deque) is to be held 1.5 times as long, not 6 times.
     */
    public static final long MIN_DELAY_NANOS = 100, MAX_DELAY_NANOS = 1_000_000_000;

    public enum Outcome {
        /** The interval of the change is narrower than the change. */
        RESOLVED("resolved"),
        /** The run budget was spent with the interval still wider than the change. */
        UNRESOLVED("could not be resolved"),
        /** A delayed run's throughput was near zero, or it did not finish. */
        BROKE("the delay broke the workload");

        private final String text;

        Outcome(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    public Measured {
        changesPct = List.copyOf(changesPct);
    }

    /** The delay asked for each release: {@code factor - 1} of the mean hold, within what the agent can delay. */
    public static long delayNanos(double meanHoldNanos, double factor) {
        if (!(meanHoldNanos > 0) || !(factor > 1)) {
            throw new IllegalArgumentException("a mean hold > 0 and a factor > 1, not " + meanHoldNanos + " and " + factor);
        }
        return Math.max(MIN_DELAY_NANOS, Math.min(MAX_DELAY_NANOS, Math.round(meanHoldNanos * (factor - 1))));
    }

    /**
     * The stopping rule, after each delayed run: null to go on; {@link Outcome#RESOLVED} once at least
     * {@link #MIN_RUNS} runs give a median interval narrower than the median change (so it excludes no change
     * at all); {@link Outcome#UNRESOLVED} when {@code budget} runs did not.
     */
    public static Outcome stop(List<Double> changesPct, int budget) {
        int n = changesPct.size();
        if (n >= MIN_RUNS) {
            double[] ci = MedianInterval.of(changesPct);
            if (ci[1] - ci[0] < Math.abs(MedianInterval.median(changesPct))) {
                return Outcome.RESOLVED;
            }
        }
        return n >= budget ? Outcome.UNRESOLVED : null;
    }

    /** Whether a delayed run at {@code ratio} of the throughput as it is broke the workload. */
    public static boolean breaks(double ratio) {
        return !(ratio >= BROKEN_RATIO);
    }

    /** How many times as long the delayed runs' holds were: {@code 1 + delay / hold}. */
    public double lengthenedBy() {
        return lengthenedBy(holdNanos, delayNanos);
    }

    /** {@code 1 + delay / hold}: what a delay of each release makes of a mean hold. */
    public static double lengthenedBy(double holdNanos, double delayNanos) {
        return 1 + delayNanos / holdNanos;
    }

    /**
     * The replay's prediction for the measured lengthening against the measured change: (predicted - measured) /
     * |measured|, NaN unless the change was resolved, the replay predicted it and {@link #notAReplayCheck} is null.
     */
    public double replayErrorShare() {
        if (outcome != Outcome.RESOLVED || lengthened == null || !Double.isFinite(lengthened.changePct())
                || notAReplayCheck() != null) {
            return Double.NaN;
        }
        return (lengthened.changePct() - changePct()) / Math.abs(changePct());
    }

    /**
     * Why the measured change does not check the replay, or null when it does: a slow-down beyond what holds
     * {@link #lengthenedBy} as long can cost by themselves even in a program that ran at this lock's pace alone
     * ({@code 1/k - 1}, Amdahl's bound with the lock held all the time, by more than {@link AmdahlBound#SLACK}).
     * Then the longer holds changed how the waiters wait (more of them park, and each is woken), a cost of the
     * lock's hand-offs that the replay, which lengthens holds and keeps the rest, does not follow.
     */
    public String notAReplayCheck() {
        if (outcome != Outcome.RESOLVED) {
            return null;
        }
        double k = lengthenedBy();
        double most = AmdahlBound.maxChangePct(1, k);
        if ((1 + changePct() / 100) * AmdahlBound.SLACK >= 1 + most / 100) {
            return null;
        }
        return String.format(Locale.ROOT, "the measured %+.1f%% is more than holds %.2f× as long cost by themselves even "
                + "at this lock's pace alone (%+.1f%%): the longer holds made more waiters park and be woken, which the "
                + "replay does not follow", changePct(), k, most);
    }

    /** The measured change, percent: the median of the delayed runs'. */
    public double changePct() {
        return MedianInterval.median(changesPct);
    }

    /** About 95% distribution-free interval of {@link #changePct}: {@code [low, high]}. */
    public double[] intervalPct() {
        return MedianInterval.of(changesPct);
    }

    /** Delayed runs behind it. */
    public int runs() {
        return changesPct.size();
    }

    /**
     * {@code s = -ln(T'/T) / ln(1 + delay/hold)}, the exponent of throughput ∝ hold^-s (1: the program runs at this
     * lock's pace, 0: its holds do not matter); NaN unless the change was resolved.
     */
    public double sensitivity() {
        return outcome == Outcome.RESOLVED ? -Math.log1p(changePct() / 100) / Math.log1p(delayNanos / holdNanos) : Double.NaN;
    }

    /** Halving the holds extrapolated, {@code 2^s - 1} in percent; NaN when {@link #halvingRefusal} says why not. */
    public double halvingPct() {
        return halvingRefusal() == null ? AmdahlBound.shown(rawHalvingPct(), heldShare, 0.5) : Double.NaN;
    }

    /** Why halving is not extrapolated from this measurement, or null when it is. */
    public String halvingRefusal() {
        if (outcome != Outcome.RESOLVED) {
            return "not extrapolated: " + outcome.text();
        }
        String why = AmdahlBound.refusal(rawHalvingPct(), heldShare, 0.5);
        return why == null ? null : "refused (2^s - 1): " + why;
    }

    /** {@code 2^s - 1} in percent, before Amdahl's bound. */
    public double rawHalvingPct() {
        return 100 * (Math.pow(2, sensitivity()) - 1);
    }
}
