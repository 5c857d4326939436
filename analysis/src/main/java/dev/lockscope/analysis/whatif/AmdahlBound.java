package dev.lockscope.analysis.whatif;

import java.util.Locale;

/**
 * Amdahl's bound on making a lock's holds k× as long (k &lt; 1): if the holds take a share U of the wall time,
 * the most the program can gain is as if that time were all on its critical path, a speed-up of
 * {@code 1 / (1 - U (1 - k))}: at most {@code 1/k} for a lock held all the time (halving its holds cannot more
 * than double the throughput), less for one held part of it. A prediction above it is outside what either
 * model (the replay's or the experiment's extrapolation) can mean: a little above it, it is shown as the bound
 * ({@link #shown}); far above it, it is refused.
 */
public final class AmdahlBound {
    /**
     * How far above the bound, as a ratio of speed-ups, a prediction is shown as the bound rather than refused.
     * The held share the bound rests on is itself measured: on a program that runs at one lock's pace (its holds
     * back to back, 98.3% of the time measured) the replay predicted +98.9% and the experiment +100.7% for halving
     * its holds, both just over the bound +96.7% and both right in what they say, that the throughput about doubles.
     */
    static final double SLACK = 1.05;

    private AmdahlBound() {
    }

    /**
     * The change to show for a prediction of {@code changePct}: itself, or the bound when it is above it by no more
     * than {@link #SLACK}; NaN when {@link #refusal} refuses it.
     */
    public static double shown(double changePct, double heldShare, double factor) {
        if (refusal(changePct, heldShare, factor) != null) {
            return Double.NaN;
        }
        return factor > 0 && factor < 1 ? Math.min(changePct, bound(heldShare, factor)) : changePct;
    }

    /** {@code " (Amdahl's bound; the model said +98.9%)"} when {@link #shown} is the bound, else empty. */
    public static String capNote(double changePct, double heldShare, double factor, String model) {
        double shown = shown(changePct, heldShare, factor);
        return Double.isFinite(shown) && shown < changePct
                ? String.format(Locale.ROOT, " (Amdahl's bound; %s said %+.1f%%)", model, changePct) : "";
    }

    private static double bound(double heldShare, double factor) {
        return maxChangePct(Double.isFinite(heldShare) ? heldShare : 1, factor);
    }

    /** The largest throughput change, percent, from holds {@code factor}× as long that take {@code heldShare} (0..1) of the run. */
    public static double maxChangePct(double heldShare, double factor) {
        double u = Math.min(1, Math.max(0, heldShare));
        return 100 * (1 / (1 - u * (1 - factor)) - 1);
    }

    /**
     * Why {@code changePct} cannot be shown as the prediction for holds {@code factor}× as long held
     * {@code heldShare} of the run (NaN: not known, then the lock is taken to be held all the time), or null when
     * it can: not a finite number, or above {@link #maxChangePct} by more than {@link #SLACK}. Lengthened holds ({@code factor >= 1}) and
     * removal ({@code factor == 0}, its holds still taken but excluding nobody) are not bounded here.
     */
    public static String refusal(double changePct, double heldShare, double factor) {
        if (!Double.isFinite(changePct)) {
            return "not a finite number";
        }
        if (!(factor > 0 && factor < 1)) {
            return null;
        }
        boolean known = Double.isFinite(heldShare);
        double max = maxChangePct(known ? heldShare : 1, factor);
        if ((1 + changePct / 100) <= SLACK * (1 + max / 100) + 1e-12) {
            return null;
        }
        return String.format(Locale.ROOT, "%+.1f%% is more than Amdahl's bound %+.1f%% for holds %s as long %s", changePct,
                max, java.math.BigDecimal.valueOf(factor).stripTrailingZeros().toPlainString() + "×", known ? String.format(Locale.ROOT, "held %.1f%% of the time", 100 * Math.min(1, heldShare))
                        : "(the lock held all the time)");
    }
}
