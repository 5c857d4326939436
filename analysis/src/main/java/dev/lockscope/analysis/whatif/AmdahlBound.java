package dev.lockscope.analysis.whatif;

import java.util.Locale;

/**
 * Amdahl's bound on making a lock's holds k× as long (k &lt; 1): if the holds take a share U of the wall time,
 * the most the program can gain is as if that time were all on its critical path, a speed-up of
 * {@code 1 / (1 - U (1 - k))}: at most {@code 1/k} for a lock held all the time (halving its holds cannot more
 * than double the throughput), less for one held part of it. A prediction above it is outside what either
 * model (the replay's or the experiment's extrapolation) can mean, and is refused, not shown.
 */
public final class AmdahlBound {
    private AmdahlBound() {
    }

    /** The largest throughput change, percent, from holds {@code factor}× as long that take {@code heldShare} (0..1) of the run. */
    public static double maxChangePct(double heldShare, double factor) {
        double u = Math.min(1, Math.max(0, heldShare));
        return 100 * (1 / (1 - u * (1 - factor)) - 1);
    }

    /**
     * Why {@code changePct} cannot be shown as the prediction for holds {@code factor}× as long held
     * {@code heldShare} of the run (NaN: not known, then the lock is taken to be held all the time), or null when
     * it can: not a finite number, or above {@link #maxChangePct}. Lengthened holds ({@code factor >= 1}) and
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
        if (changePct <= max + 1e-9) {
            return null;
        }
        return String.format(Locale.ROOT, "%+.1f%% is more than Amdahl's bound %+.1f%% for holds %s as long %s", changePct,
                max, java.math.BigDecimal.valueOf(factor).stripTrailingZeros().toPlainString() + "×", known ? String.format(Locale.ROOT, "held %.1f%% of the time", 100 * Math.min(1, heldShare))
                        : "(the lock held all the time)");
    }
}
