package dev.lockscope.analysis.deep;

import dev.lockscope.analysis.model.DeepLock;
import dev.lockscope.locks.LockRecommendation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which lock of lockscope's lock library ({@code dev.lockscope.locks}) fits one measured lock, from the
 * deep mode's thread locality and contention transience of that lock (Kawachiya, <i>Java Locks: Analysis
 * and Acceleration</i>, §5.2 and §4.4, as {@link LockRecommendation#forMeasured} encodes them), and
 * whether the library's benchmarks (docs/locks.md, "Which lock for which measured lock") show that the
 * change pays on the hardware they ran on: only {@code ReservationLock}'s reserved path measured faster
 * than the VM's locks there; the tasuki locks fit transient contention but measured no faster than
 * {@code synchronized} on x86.
 *
 * @param lock           the measured lock
 * @param recommendation the library lock that fits it
 * @param pays           the supporting benchmark row shows a gain over the current lock
 * @param evidence       the benchmark row of docs/locks.md behind the choice
 */
public record LibraryLockAdvice(DeepLock lock, LockRecommendation recommendation, boolean pays, String evidence) {
    /** Locks with fewer acquisitions are not judged: their locking cannot cost the program much. */
    public static final long MIN_GETS = 1_000;

    static List<LibraryLockAdvice> of(List<DeepLock> locks) {
        List<LibraryLockAdvice> out = new ArrayList<>();
        for (DeepLock l : locks) {
            if (l.counts().gets() < MIN_GETS) {
                continue;
            }
            boolean waits = l.counts().waits() + l.counts().notifies() > 0;
            LockRecommendation r = LockRecommendation.forMeasured(l.firstRepetitionShare(), l.flatToFatRatio(), waits);
            if (r != LockRecommendation.KEEP_CURRENT_LOCK) {
                out.add(new LibraryLockAdvice(l, r, r == LockRecommendation.RESERVATION, evidence(r)));
            }
        }
        out.sort(Comparator.comparing(LibraryLockAdvice::pays).reversed()
                .thenComparing(Comparator.comparingLong((LibraryLockAdvice a) -> a.lock().counts().gets()).reversed()));
        return out;
    }

    /** The row of docs/locks.md's table that supports {@code r}, with its numbers (JDK 25, ns per lock+unlock). */
    static String evidence(LockRecommendation r) {
        return switch (r) {
            case RESERVATION -> "PrimitiveTest: a reserved ReservationLock 1.8 ns against synchronized 16.0 ns per "
                    + "lock+unlock; a second thread's first lock costs 1.6 us once (TransitionTest)";
            case ASYMMETRIC_TASUKI -> "T/S rounds: no cancellation spike (62.5 ns against ReservationLock's 1,712.7 ns), "
                    + "but its owner path measured no faster than TasukiLock on x86 (12.4 against 14.0 ns)";
            case TASUKI -> "FlatFat: flat again after contention (16.1 ns), but no faster than synchronized on x86 "
                    + "(flat 14.0 against 16.0 ns)";
            case KEEP_CURRENT_LOCK -> "TasukiLock fat 21.5 ns against synchronized fat 11.1 ns";
        };
    }

    /** One sentence for the report. */
    public String sentence() {
        DeepLock l = lock;
        String measured = String.format(java.util.Locale.ROOT, "%.1f%% of its %,d acquisitions in its first repetition%s",
                100 * l.firstRepetitionShare(), l.counts().gets(),
                Double.isInfinite(l.flatToFatRatio()) ? ", never contended"
                        : String.format(java.util.Locale.ROOT, ", flat sections %.0fx as long as fat ones", l.flatToFatRatio()));
        return pays
                ? "Use " + recommendation.lockClass + ": " + measured + " (docs/locks.md, " + evidence + ")."
                : recommendation.lockClass + " fits (" + measured + ") but would not pay: " + evidence + " (docs/locks.md).";
    }
}
