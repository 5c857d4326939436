package dev.lockscope.analysis.whatif;

import dev.lockscope.core.LockId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * "If this lock's holds were k× shorter, how much faster would the program be?" Each prediction replays
 * the recorded threads ({@link Replay}) twice, as recorded and with the change, and compares how fast
 * the threads complete their lock operations (each thread's speed-up weighted by its operations,
 * {@link Replay.Outcome#speedup}): the change in throughput, if the program's throughput is
 * proportional to the lock operations it does (the J9 park-contention report's demos count one operation per round of
 * locks). Comparing two replays, rather than a replay with the recording, cancels what the replay
 * does not model in both.
 *
 * <p>Confidence: the same prediction is made on {@link #SLICES} consecutive parts of the recording
 * alone (repeats of the experiment, each over a quarter of the run); the spread of their answers is
 * shown next to the prediction. A wide spread means the run changed behaviour over time, or that a
 * part had too few holds to say.
 */
public final class WhatIf {
    /** Parts of the recording replayed alone to see how stable a prediction is. */
    public static final int SLICES = 4;
    /** The factor of the ranked table: halving each lock's holds. */
    public static final double RANKING_FACTOR = 0.5;
    /** Locks in the ranked table at most, those waited for longest in the recording (each costs five replays). */
    public static final int RANKED_LOCKS = 10;

    /** What a prediction assumes, in the words the outputs show. */
    public static final List<String> ASSUMPTIONS = List.of(
            "work outside the changed holds takes as long as it did in the recording (no CPU freed or taken)",
            "among the threads waiting for a lock, it goes to the one the recording gave it to first (each lock keeps its hand-off order)",
            "throughput is proportional to the lock operations threads complete (each thread's speed-up counts by its operations)",
            "only holds the recording shows are replayed: acquisitions and releases nobody waited for are "
                    + "estimated from the lock's median hold, and a lock nobody waited for is not seen (removing a lock "
                    + "in a deep-mode recording is also bounded by each lock deep mode timed: it cannot be held more "
                    + "than all the time)");

    private WhatIf() {
    }

    /**
     * @param lock           the lock changed, null when a site of every lock was changed
     * @param site           the holding site changed, null for every hold of the lock
     * @param removed        the lock no longer excludes (its holds are not shortened)
     * @param changePct      predicted throughput change, percent (+94: 1.94× as many operations per second)
     * @param lowPct         the lowest prediction of the parts of the recording replayed alone
     * @param highPct        the highest
     * @param parts          how many parts had holds of the lock (at most {@link #SLICES})
     * @param topLockBefore  the lock waited for longest in the replay as recorded, null if none
     * @param topLockAfter   the same with the change: the next bottleneck; null if nobody waits then
     * @param topWaitSharePct the share of all replayed lock wait that the top lock after the change has
     * @param holds          holds changed
     * @param holdsSeenPct   of those, percent whose acquisition and release were both recorded
     * @param forcedGrants   times the changed replay had to hand a lock out of order to go on (0 normally)
     * @param replayedNanos  the length of recording replayed
     * @param truncated      only the beginning of the recording was replayed ({@link LockTrace#truncated()})
     * @param ceilingsChecked the prediction was checked against the locks deep mode timed ({@link HoldCeiling}):
     *                       a removal in a deep-mode recording
     * @param ceiling        the tightest of them, other than the changed lock; null when none
     * @param replayChangePct the replay's own prediction; {@code changePct} is the lower of it and the ceiling's
     *                       bound, and when the bound is lower, {@code topLockAfter} is the ceiling's lock
     */
    public record Prediction(LockId lock, String site, double factor, boolean removed, double changePct,
                             double lowPct, double highPct, int parts, LockId topLockBefore, LockId topLockAfter,
                             double topWaitSharePct, int holds, double holdsSeenPct, int forcedGrants,
                             long replayedNanos, boolean truncated, boolean ceilingsChecked, HoldCeiling ceiling,
                             double replayChangePct) {
        /**
         * {@code high} when at least three parts of the recording agree within 10 percentage points and at
         * least 80% of the changed holds were seen whole; {@code low} when the parts differ by more than
         * 25 points, fewer than half of the holds were seen, fewer than two parts had holds, or the replay
         * had to hand a lock out of order; else {@code medium}.
         */
        public String confidence() {
            double spread = highPct - lowPct;
            if (parts < 2 || spread > 25 || holdsSeenPct < 50 || forcedGrants > 0) {
                return "low";
            }
            return parts >= 3 && spread <= 10 && holdsSeenPct >= 80 ? "high" : "medium";
        }

        /** The lock below bounds the prediction: the replay, which cannot see it, predicted more. */
        public boolean bounded() {
            return ceiling != null && ceiling.maxChangePct() < replayChangePct;
        }

        /** Low confidence: no advice; the outputs rank only the others. */
        public boolean lowConfidence() {
            return confidence().equals("low");
        }
    }

    /** The prediction for the holds of {@code lock} (null: of every lock) at {@code site} (null: all) scaled by {@code factor}. */
    public static Prediction predict(LockTrace trace, LockId lock, String site, double factor) {
        return predict(trace, lock, site, factor, false);
    }

    /** The prediction for {@code lock} no longer excluding anybody (its critical sections run in parallel). */
    public static Prediction remove(LockTrace trace, LockId lock) {
        return predict(trace, new Baselines(trace), lock, null, 1, true, null);
    }

    /**
     * The same, bounded by the locks deep mode timed in the recording ({@link HoldCeiling#of}): removing a lock
     * keeps the other locks' holds, so each caps the gain, and the tightest is the next bottleneck when its cap
     * is below the replay's answer (a lock only ever taken under the removed one, which the replay cannot see).
     * {@code ceilings} is null when the recording was not made in deep mode.
     */
    public static Prediction remove(LockTrace trace, LockId lock, List<HoldCeiling> ceilings) {
        return predict(trace, new Baselines(trace), lock, null, 1, true, ceilings);
    }

    private static Prediction predict(LockTrace trace, LockId lock, String site, double factor, boolean remove) {
        return predict(trace, new Baselines(trace), lock, site, factor, remove, null);
    }

    /** The replays of the recording as it was, whole and by part: the same for every change asked about. */
    private static final class Baselines {
        final Replay.Outcome whole;
        final List<List<List<Hold>>> parts = new ArrayList<>();
        final List<Replay.Outcome> partOutcomes = new ArrayList<>();

        Baselines(LockTrace trace) {
            whole = Replay.run(trace, Replay.Change.NONE);
            long length = trace.endNanos() - trace.startNanos();
            for (int s = 0; s < SLICES && length > 0; s++) {
                List<List<Hold>> part = slice(trace, trace.startNanos() + length * s / SLICES,
                        trace.startNanos() + length * (s + 1) / SLICES);
                parts.add(part);
                partOutcomes.add(Replay.run(part, trace.locks().size(), trace.startNanos(), Replay.Change.NONE));
            }
        }
    }

    private static Prediction predict(LockTrace trace, Baselines baselines, LockId lock, String site, double factor,
                                      boolean remove, List<HoldCeiling> ceilings) {
        int index = lock == null ? -1 : trace.locks().indexOf(lock);
        if (lock != null && index < 0) {
            throw new IllegalArgumentException("no hold of " + lock.label() + " in the recording");
        }
        Replay.Change change = new Replay.Change(index, site, factor, remove);
        Replay.Outcome before = baselines.whole;
        Replay.Outcome after = Replay.run(trace, change);
        int holds = 0, seen = 0;
        java.util.Set<String> changedSites = new java.util.HashSet<>();
        for (List<Hold> hs : trace.holds()) {
            for (Hold h : hs) {
                if (change.applies(h)) {
                    holds++;
                    seen += h.acquireSeen() && h.releaseSeen() ? 1 : 0;
                    if (h.site() != null) {
                        changedSites.add(h.site());
                    }
                }
            }
        }
        HoldCeiling ceiling = null;
        for (HoldCeiling c : ceilings == null || lock == null ? List.<HoldCeiling>of() : ceilings) {
            if (!c.isDeepRecordOf(lock, changedSites, ceilings) && (ceiling == null || c.maxChangePct() < ceiling.maxChangePct())) {
                ceiling = c;
            }
        }
        double cap = ceiling == null ? Double.POSITIVE_INFINITY : ceiling.maxChangePct();
        double low = Double.NaN, high = Double.NaN;
        int parts = 0;
        for (int s = 0; s < baselines.parts.size(); s++) {
            List<List<Hold>> part = baselines.parts.get(s);
            if (part.stream().noneMatch(hs -> hs.stream().anyMatch(change::applies))) {
                continue;
            }
            double c = Math.min(cap, changePct(baselines.partOutcomes.get(s), Replay.run(part, trace.locks().size(), trace.startNanos(), change)));
            low = parts == 0 ? c : Math.min(low, c);
            high = parts == 0 ? c : Math.max(high, c);
            parts++;
        }
        int topBefore = before.topLock(), topAfter = after.topLock();
        long total = after.totalWaitNanos();
        double share = topAfter < 0 || total == 0 ? 0 : 100.0 * after.waitNanosByLock()[topAfter] / total;
        double replayed = changePct(before, after);
        boolean bounded = cap < replayed;
        return new Prediction(lock, site, factor, remove, Math.min(cap, replayed), low, high, parts,
                topBefore < 0 ? null : trace.locks().get(topBefore),
                bounded ? ceiling.lock() : topAfter < 0 ? null : trace.locks().get(topAfter),
                bounded ? Double.NaN : share, holds, holds == 0 ? 0 : 100.0 * seen / holds, after.forcedGrants(),
                trace.endNanos() - trace.startNanos(), trace.truncated(), ceilings != null, ceiling, replayed);
    }

    /**
     * Every lock waited for in the recording (at most {@link #RANKED_LOCKS}, those waited for longest),
     * each with its holds halved: those of medium or high confidence first, then the low ones, each by the
     * greatest predicted gain.
     */
    public static List<Prediction> ranking(LockTrace trace) {
        long[] recordedWait = new long[trace.locks().size()];
        for (List<Hold> hs : trace.holds()) {
            for (Hold h : hs) {
                recordedWait[h.lock()] += h.grantNanos() - h.requestNanos();
            }
        }
        List<Integer> waited = new ArrayList<>();
        for (int i = 0; i < recordedWait.length; i++) {
            if (recordedWait[i] > 0) {
                waited.add(i);
            }
        }
        waited.sort(Comparator.<Integer>comparingLong(i -> -recordedWait[i]).thenComparing(i -> trace.locks().get(i)));
        List<Prediction> out = new ArrayList<>();
        if (waited.isEmpty()) {
            return out;
        }
        Baselines baselines = new Baselines(trace);
        for (int i : waited.subList(0, Math.min(RANKED_LOCKS, waited.size()))) {
            out.add(predict(trace, baselines, trace.locks().get(i), null, RANKING_FACTOR, false, null));
        }
        // low confidence is no advice: after every trustworthy prediction, whatever it predicts (a lock of two
        // holds can replay to any number)
        out.sort(Comparator.comparing(Prediction::lowConfidence).thenComparing(Comparator.comparingDouble(Prediction::changePct).reversed()));
        return out;
    }

    private static double changePct(Replay.Outcome before, Replay.Outcome after) {
        return 100 * (Replay.Outcome.speedup(before, after) - 1);
    }

    /**
     * Each thread's holds granted in [from, to), none asked for before {@code from}: every thread starts
     * the part afresh, as in a run of its own (a wait begun in the part before would otherwise start the
     * part early, by as much as the longest wait).
     */
    static List<List<Hold>> slice(LockTrace trace, long from, long to) {
        List<List<Hold>> out = new ArrayList<>();
        for (List<Hold> hs : trace.holds()) {
            out.add(hs.stream().filter(h -> h.grantNanos() >= from && h.grantNanos() < to)
                    .map(h -> h.requestNanos() >= from ? h : new Hold(h.lock(), from, h.grantNanos(), h.releaseNanos(),
                            h.site(), h.acquireSeen(), h.releaseSeen()))
                    .toList());
        }
        return out;
    }
}
