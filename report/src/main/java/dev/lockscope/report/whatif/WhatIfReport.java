package dev.lockscope.report.whatif;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.whatif.HoldCeiling;
import dev.lockscope.analysis.whatif.AmdahlBound;
import dev.lockscope.analysis.whatif.Measured;
import dev.lockscope.analysis.whatif.WhatIf;
import dev.lockscope.core.LockTable;
import dev.lockscope.report.model.Report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;

/**
 * What-if predictions as text and JSON: the "what would help" section of the report (every lock's
 * holds halved, the greatest gain first) and the answer of {@code lockscope whatif} for one change.
 */
public final class WhatIfReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private WhatIfReport() {
    }

    /** Why a low-confidence prediction is no advice, in the words the outputs show. */
    static final String LOW_CONFIDENCE_WHY = "the quarters of the recording disagree, few holds were seen, "
            + "or the replay reordered a lock";

    /**
     * What {@code lockscope whatif REC} prints: every lock's prediction with its holds halved, ranked, then the rows no
     * prediction was made for and why ({@link WhyNoPrediction}), then the replay's assumptions; one line when no
     * thread waited for a lock.
     */
    public static String rankingText(Report report, String recording) {
        List<WhatIf.Prediction> ranking = report.whatWouldHelp();
        if (ranking.isEmpty()) {
            return "lockscope: no thread waited for a lock in " + recording + ": nothing to predict\n";
        }
        return section(ranking, Integer.MAX_VALUE, true, report.contention().rowLabels()).substring(1)
                + WhyNoPrediction.text(report)
                + "assumptions:\n" + String.join("", WhatIf.ASSUMPTIONS.stream().map(a -> "  - " + a + "\n").toList());
    }

    /** The same as JSON: {@code whatWouldHelp}, {@code noPrediction} and {@code whatIfAssumptions} (docs/json-schema.md). */
    public static ObjectNode rankingJson(Report report) {
        ObjectNode root = MAPPER.createObjectNode();
        root.set("whatWouldHelp", json(report.whatWouldHelp(), report.contention().rowLabels()));
        root.set("noPrediction", WhyNoPrediction.json(report));
        root.set("whatIfAssumptions", assumptions());
        return root;
    }

    /** What {@code whatif --measure --format json} prints: the sites it could measure, then what it measured. */
    public static ObjectNode measuredJson(List<String> candidates, List<Measured> measured) {
        ObjectNode root = MAPPER.createObjectNode();
        candidates.forEach(root.putArray("candidates")::add);
        root.set("measured", measuredJson(measured));
        return root;
    }

    /**
     * The ranked table, preceded by an empty line; empty when no lock was waited for. Only predictions of
     * medium or high confidence are ranked as advice; those of low confidence are counted in one line
     * ({@code listLow}: listed apart below it, as {@code lockscope whatif} does), and when none is left the
     * section says plainly that no prediction is trustworthy.
     */
    public static String section(List<WhatIf.Prediction> ranking, int top, boolean listLow) {
        return section(ranking, top, listLow, LockId::label);
    }

    /** The same, each lock named by {@code labels} (the table's row names: {@code LockContention.rowLabels}). */
    public static String section(List<WhatIf.Prediction> ranking, int top, boolean listLow,
                                 java.util.function.Function<LockId, String> labels) {
        if (ranking.isEmpty()) {
            return "";
        }
        List<WhatIf.Prediction> trusted = ranking.stream().filter(p -> !p.lowConfidence()).toList();
        List<WhatIf.Prediction> low = ranking.stream().filter(WhatIf.Prediction::lowConfidence).toList();
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "%nwhat would help: each lock's holds %s as long in a replay of the recording (see: lockscope whatif)%n",
                factor(WhatIf.RANKING_FACTOR)));
        if (ranking.get(0).truncated()) {
            sb.append(String.format(Locale.ROOT, "  (the first %.1f s of the recording only: the bound on the trace)%n",
                    ranking.get(0).replayedNanos() / 1e9));
        }
        if (trusted.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "  no prediction is trustworthy here: all %d have low confidence%n"
                    + "  (%s)%n", low.size(), LOW_CONFIDENCE_WHY));
        } else {
            rows(sb, trusted, top, labels);
            if (!low.isEmpty()) {
                sb.append(String.format(Locale.ROOT, "  (%d more of low confidence, no advice%s)%n", low.size(),
                        listLow ? ": below" : ": lockscope whatif lists them"));
            }
        }
        if (listLow && !low.isEmpty()) {
            sb.append("low confidence, no advice (lockscope whatif --lock ID says why):\n");
            rows(sb, low, top, labels);
        }
        return sb.toString();
    }

    /**
     * The lock last, whole, as the table prints its rows (on the line below when too long for the line): its name
     * is what identifies it (two of Caffeine's differ only in their class); what was waited for most then is cut.
     */
    private static void rows(StringBuilder sb, List<WhatIf.Prediction> ranking, int top,
                             java.util.function.Function<LockId, String> labels) {
        sb.append(String.format(Locale.ROOT, "  %9s %-19s %-6s %-28s %s%n", "predicted", "quarters alone", "conf.",
                "then waited for most", "lock"));
        for (WhatIf.Prediction p : ranking.subList(0, Math.min(top, ranking.size()))) {
            String head = String.format(Locale.ROOT, "  %9s %-19s %-6s %-28s", refusal(p) == null ? pct(shown(p)) : "refused",
                    range(p), p.confidence(), LockTable.abbreviate(label(p.topLockAfter(), labels), 28));
            String lock = label(p.lock(), labels);
            sb.append(head.length() + 1 + lock.length() <= LockTable.WIDTH ? head + " " + lock : head.stripTrailing() + "\n      " + lock)
                    .append('\n');
        }
        if (ranking.size() > top) {
            sb.append("  (").append(ranking.size() - top).append(" more locks, --top)\n");
        }
    }

    /** The answer to one question: the prediction, how far to trust it, and what the replay assumes. */
    public static String text(WhatIf.Prediction p) {
        StringBuilder sb = new StringBuilder();
        sb.append("what if ").append(question(p)).append('\n');
        String refused = refusal(p);
        sb.append(refused == null ? String.format(Locale.ROOT, "  predicted throughput change: %s%s  (confidence %s)%n",
                pct(shown(p)), p.removed() ? "" : AmdahlBound.capNote(p.changePct(), Double.NaN, p.factor(), "the replay"),
                p.confidence()) : "  predicted throughput change: refused: " + refused + "\n");
        sb.append(String.format(Locale.ROOT, "  each quarter of the recording replayed alone: %s%n", range(p)));
        sb.append(String.format(Locale.ROOT, "  holds changed: %d, %.0f%% of them recorded whole (the rest estimated)%n",
                p.holds(), p.holdsSeenPct()));
        sb.append("  waited for most as recorded: ").append(label(p.topLockBefore())).append('\n');
        sb.append(String.format(Locale.ROOT, "  waited for most after the change: %s%s%n", label(p.topLockAfter()),
                p.topLockAfter() == null ? "" : p.bounded() ? " (the lock below, from deep mode's holds)"
                        : String.format(Locale.ROOT, " (%.0f%% of the replayed lock wait)", p.topWaitSharePct())));
        if (p.removed()) {
            sb.append(lockBelow(p));
        }
        if (p.truncated()) {
            sb.append(String.format(Locale.ROOT, "  replayed the first %.1f s of the recording only (the bound on the "
                    + "trace: %s)%n", p.replayedNanos() / 1e9, "about half a million holds"));
        }
        if (p.topLockAfter() == null && p.changePct() > 0 && !p.removed()) {
            sb.append("  (a lock nobody waited for in the recording is not in it, and cannot be named as the next)\n");
        }
        if (p.forcedGrants() > 0) {
            sb.append("  the changed replay had to hand a lock out of order ").append(p.forcedGrants())
                    .append(" times to go on (lock order differs from the recording's): low confidence\n");
        }
        sb.append("assumptions:\n");
        WhatIf.ASSUMPTIONS.forEach(a -> sb.append("  - ").append(a).append('\n'));
        return sb.toString();
    }

    /**
     * What bounds a removal from below: the lock deep mode timed that caps the gain, or, without deep mode, that
     * a lock below cannot be seen and how to see it.
     */
    static String lockBelow(WhatIf.Prediction p) {
        if (!p.ceilingsChecked()) {
            return "  a lock taken only while this one is held (a lock below it) is never waited for, so the recording\n"
                    + "  cannot show it, and it may bound the gain. To see it: lockscope record --deep 'your.package.**'\n"
                    + "  (deep mode times every hold of the locks your classes take, and of the JDK's Hashtable, Vector\n"
                    + "  and StringBuffer monitors at their calls), then ask again\n";
        }
        HoldCeiling c = p.ceiling();
        if (c == null) {
            return "  deep mode timed no other lock in its classes: no lock below bounds this\n";
        }
        String which = String.format(Locale.ROOT, "%s (held %.1f%% of the run, every hold timed by deep mode%s)",
                c.lock().label(), c.utilisationPct(), c.site() == null ? "" : ";\n    first locked at " + c.site());
        if (p.bounded()) {
            return String.format(Locale.ROOT, "  bounded by the lock below, %s:%n    at most %s; the replay, which sees only "
                    + "locks somebody waited for, predicted %s%n", which, pct(c.maxChangePct()), pct(p.replayChangePct()));
        }
        return String.format(Locale.ROOT, "  the tightest lock deep mode timed, %s,%n    allows up to %s: not reached%n",
                which, pct(c.maxChangePct()));
    }

    /** One prediction: {@code lock, kind, site, factor, removed, changePct, lowPct, highPct, parts, confidence,
     * topLockBefore, topLockAfter, topWaitSharePct, holds, holdsSeenPct, forcedGrants, replayedNanos, truncated,
     * replayChangePct, ceilingsChecked, bounded, ceiling, refused}; {@code changePct} null when {@code refused} says why. */
    public static ObjectNode json(WhatIf.Prediction p) {
        return json(p, LockId::label);
    }

    /** The same, with {@code row}: the lock's name in the table ({@code labels}, {@code LockContention.rowLabels}). */
    public static ObjectNode json(WhatIf.Prediction p, java.util.function.Function<LockId, String> labels) {
        ObjectNode o = MAPPER.createObjectNode();
        String refused = refusal(p);
        o.put("lock", p.lock() == null ? null : p.lock().label());
        o.put("row", p.lock() == null ? null : labels.apply(p.lock()));
        o.put("kind", p.lock() == null ? null : p.lock().kind().label());
        o.put("site", p.site());
        o.put("factor", p.factor());
        o.put("removed", p.removed());
        o.put("changePct", refused == null ? round(shown(p)) : null);
        o.put("lowPct", round(p.lowPct()));
        o.put("highPct", round(p.highPct()));
        o.put("parts", p.parts());
        o.put("confidence", p.confidence());
        o.put("topLockBefore", p.topLockBefore() == null ? null : p.topLockBefore().label());
        o.put("topLockAfter", p.topLockAfter() == null ? null : p.topLockAfter().label());
        o.put("topWaitSharePct", round(p.topWaitSharePct()));
        o.put("holds", p.holds());
        o.put("holdsSeenPct", round(p.holdsSeenPct()));
        o.put("forcedGrants", p.forcedGrants());
        o.put("replayedNanos", p.replayedNanos());
        o.put("truncated", p.truncated());
        o.put("replayChangePct", round(p.replayChangePct()));
        o.put("ceilingsChecked", p.ceilingsChecked());
        o.put("bounded", p.bounded());
        if (p.ceiling() == null) {
            o.putNull("ceiling");
        } else {
            ObjectNode c = o.putObject("ceiling");
            c.put("lock", p.ceiling().lock().label());
            c.put("site", p.ceiling().site());
            c.put("utilisationPct", round(p.ceiling().utilisationPct()));
            c.put("maxChangePct", round(p.ceiling().maxChangePct()));
        }
        o.put("refused", refused);
        return o;
    }

    /** The ranked table as a JSON array. */
    public static ArrayNode json(List<WhatIf.Prediction> ranking) {
        return json(ranking, LockId::label);
    }

    public static ArrayNode json(List<WhatIf.Prediction> ranking, java.util.function.Function<LockId, String> labels) {
        ArrayNode a = MAPPER.createArrayNode();
        ranking.forEach(p -> a.add(json(p, labels)));
        return a;
    }

    /** What the replay assumes, as a JSON array of sentences. */
    public static ArrayNode assumptions() {
        ArrayNode a = MAPPER.createArrayNode();
        WhatIf.ASSUMPTIONS.forEach(a::add);
        return a;
    }

    /** The experiment, the site whose longer holds slowed the program most first, the replay's prediction beside each. */
    public static String measuredText(List<Measured> sites) {
        StringBuilder sb = new StringBuilder("measured: each site's holds lengthened, its releases delayed (the lock held), "
                + "runs as it is and delayed in turn\n");
        for (Measured m : sites) {
            sb.append("  ").append(m.site()).append('\n');
            sb.append(String.format(Locale.ROOT, "    mean hold %s%s, each release delayed %s: holds %s as long%n",
                    duration(m.holdNanos()), Double.isNaN(m.heldShare()) ? "" : String.format(Locale.ROOT,
                            " (held %.1f%% of the time in use)", 100 * m.heldShare()), duration(m.delayNanos()),
                    String.format(Locale.ROOT, "%.2f×", 1 + m.delayNanos() / m.holdNanos())));
            sb.append("    throughput ").append(change(m)).append('\n');
            sb.append("    holds halved: ").append(m.halvingRefusal() == null ? String.format(Locale.ROOT,
                    "%s%s (sensitivity %.2f)", pct(m.halvingPct()), AmdahlBound.capNote(m.rawHalvingPct(), m.heldShare(), 0.5, "2^s - 1"),
                    m.sensitivity()) : m.halvingRefusal());
            sb.append("\n    the replay, holds halved: ").append(replay(m)).append('\n');
            sb.append(String.format(Locale.ROOT, "    the replay, holds %.2f× as long: ", m.lengthenedBy())).append(replayOfMeasured(m))
                    .append('\n');
        }
        sb.append("  throughput: the median change of the delayed runs, each against the runs as it is before and after it,\n"
                + "  with its distribution-free interval; holds halved: 2^s - 1 for the sensitivity s = -ln(T'/T) / ln(holds'/holds)\n"
                + "  (throughput goes as hold^-s), bounded by Amdahl's law; the replay: its prediction for halving the holds in\n"
                + "  the site's method, from the profiled run, and for what was measured (how far it is from the measured change,\n"
                + "  relative to it); nothing is extrapolated from a change not resolved\n");
        return sb.toString();
    }

    /** {@code -4.2% [-7.1%, -1.0%] in 5 delayed runs: resolved}, or what the delay broke. */
    private static String change(Measured m) {
        double[] ci = m.intervalPct();
        String runs = m.runs() + (m.runs() == 1 ? " delayed run" : " delayed runs");
        if (m.outcome() == Measured.Outcome.BROKE) {
            return (m.runs() == 0 ? "not measured: the delayed run did not finish"
                    : pct(m.changesPct().get(m.runs() - 1)) + " in delayed run " + m.runs() + ", near zero")
                    + ": " + m.outcome().text();
        }
        return pct(m.changePct()) + " [" + pct(ci[0]) + ", " + pct(ci[1]) + "] in " + runs + ": " + m.outcome().text()
                + (m.outcome() == Measured.Outcome.UNRESOLVED ? " (the interval is wider than the change)" : "");
    }

    private static String duration(double nanos) {
        return nanos >= 1e6 ? String.format(Locale.ROOT, "%.2f ms", nanos / 1e6) : String.format(Locale.ROOT, "%.2f µs", nanos / 1e3);
    }

    /** The replay's prediction beside a measured site: {@code +94.1% high}, {@code -} when it saw no hold there, or why it is refused. */
    private static String replay(Measured m) {
        WhatIf.Prediction p = m.predicted();
        if (p == null) {
            return "-";
        }
        String refused = refusal(m);
        if (refused != null) {
            return "refused: " + refused;
        }
        return p.removed() ? pct(p.changePct()) + " " + p.confidence() : pct(AmdahlBound.shown(p.changePct(), m.heldShare(), p.factor()))
                + AmdahlBound.capNote(p.changePct(), m.heldShare(), p.factor(), "the replay") + " " + p.confidence();
    }

    /** The replay's prediction for the lengthening measured and how far it is from the measured change: the replay checked. */
    private static String replayOfMeasured(Measured m) {
        WhatIf.Prediction p = m.lengthened();
        if (p == null) {
            return "-";
        }
        if (!Double.isFinite(p.changePct())) {
            return "refused: not a finite number";
        }
        double error = m.replayErrorShare();
        String notACheck = m.notAReplayCheck();
        return pct(p.changePct()) + " " + p.confidence() + (notACheck != null ? "; not checked: " + notACheck
                : Double.isNaN(error) ? "" : String.format(Locale.ROOT, ", %.0f%% from the measured change", 100 * Math.abs(error)));
    }

    /** Why the replay's prediction beside a measured site is refused: bounded by the share of the time the site's holds took. */
    private static String refusal(Measured m) {
        WhatIf.Prediction p = m.predicted();
        return p.removed() ? refusal(p) : AmdahlBound.refusal(p.changePct(), m.heldShare(), p.factor());
    }

    /** The change shown for a prediction: the replay's, at most Amdahl's bound for a lock held all the time. */
    private static double shown(WhatIf.Prediction p) {
        return p.removed() ? p.changePct() : AmdahlBound.shown(p.changePct(), Double.NaN, p.factor());
    }

    /**
     * Why a replay's prediction is not shown: outside Amdahl's bound for its factor (the replay does not know the
     * lock's share of the run, so the bound is that of a lock held all the time), or not a finite number; null
     * when it is shown.
     */
    public static String refusal(WhatIf.Prediction p) {
        return p.removed() ? (Double.isFinite(p.changePct()) ? null : "not a finite number")
                : AmdahlBound.refusal(p.changePct(), Double.NaN, p.factor());
    }

    /** The experiment as a JSON array, the site whose longer holds slowed the program most first. */
    public static ArrayNode measuredJson(List<Measured> sites) {
        ArrayNode a = MAPPER.createArrayNode();
        for (Measured m : sites) {
            ObjectNode o = a.addObject();
            o.put("site", m.site());
            o.put("holdNanos", Math.round(m.holdNanos()));
            o.put("heldPct", round(100 * m.heldShare()));
            o.put("delayNanos", Math.round(m.delayNanos()));
            o.put("outcome", m.outcome().text());
            o.put("runs", m.runs());
            double[] ci = m.intervalPct();
            o.put("changePct", round(m.changePct()));
            o.put("lowPct", round(ci[0]));
            o.put("highPct", round(ci[1]));
            ArrayNode changes = o.putArray("changesPct");
            m.changesPct().forEach(c -> changes.add(round(c)));
            o.put("sensitivity", round(m.sensitivity()));
            o.put("halvingPct", round(m.halvingPct()));
            o.put("halvingRefused", m.halvingRefusal());
            ObjectNode predicted = m.predicted() == null ? null : json(m.predicted());
            if (predicted != null && refusal(m) != null) {
                predicted.putNull("changePct");
                predicted.put("refused", refusal(m));
            } else if (predicted != null && !m.predicted().removed()) {
                predicted.put("changePct", round(AmdahlBound.shown(m.predicted().changePct(), m.heldShare(), m.predicted().factor())));
            }
            o.set("predicted", predicted);
            o.put("lengthenedBy", round(m.lengthenedBy()));
            ObjectNode lengthened = m.lengthened() == null ? null : json(m.lengthened());
            if (lengthened != null) {
                lengthened.put("errorPct", round(100 * m.replayErrorShare()));
                lengthened.put("notChecked", m.notAReplayCheck());
            }
            o.set("predictedLengthened", lengthened);
        }
        return a;
    }

    private static String question(WhatIf.Prediction p) {
        String holds = p.site() == null ? "" : "holds at " + p.site() + " of ";
        String lock = p.lock() == null ? "every lock" : p.lock().label();
        if (p.removed()) {
            return lock + " excluded nobody (its critical sections ran in parallel)";
        }
        return "the " + holds + lock + (p.site() == null ? "'s holds" : "") + " took " + factor(p.factor()) + " as long";
    }

    private static String factor(double f) {
        return BigDecimal.valueOf(f).stripTrailingZeros().toPlainString() + "×";
    }

    private static String range(WhatIf.Prediction p) {
        if (p.parts() == 0) {
            return "-";
        }
        return "[" + pct(p.lowPct()) + ", " + pct(p.highPct()) + "]";
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%+.1f%%", v);
    }

    private static String label(LockId id, java.util.function.Function<LockId, String> labels) {
        return id == null ? "(no lock waited for)" : labels.apply(id);
    }

    private static String label(LockId id) {
        return label(id, LockId::label);
    }

    private static BigDecimal round(double v) {
        return !Double.isFinite(v) ? null : BigDecimal.valueOf(v).setScale(2, RoundingMode.HALF_UP);
    }
}
