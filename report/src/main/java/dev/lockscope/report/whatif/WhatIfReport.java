package dev.lockscope.report.whatif;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.blame.LockId;
import dev.lockscope.analysis.whatif.WhatIf;
import dev.lockscope.core.LockTable;

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

    /** The ranked table, preceded by an empty line; empty when no lock was waited for. */
    public static String section(List<WhatIf.Prediction> ranking, int top) {
        if (ranking.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "%nwhat would help: each lock's holds %s as long in a replay of the recording (see: lockscope whatif)%n",
                factor(WhatIf.RANKING_FACTOR)));
        if (ranking.get(0).truncated()) {
            sb.append(String.format(Locale.ROOT, "  (the first %.1f s of the recording only: the bound on the trace)%n",
                    ranking.get(0).replayedNanos() / 1e9));
        }
        sb.append(String.format(Locale.ROOT, "  %9s %-19s %-6s %-31s %s%n", "predicted", "quarters alone", "conf.", "lock",
                "then waited for most"));
        for (WhatIf.Prediction p : ranking.subList(0, Math.min(top, ranking.size()))) {
            sb.append(LockTable.clipLines(String.format(Locale.ROOT, "  %9s %-19s %-6s %-31s %s", pct(p.changePct()),
                    range(p), p.confidence(), LockTable.abbreviate(label(p.lock()), 31), LockTable.abbreviate(label(p.topLockAfter()), 28))))
                    .append('\n');
        }
        if (ranking.size() > top) {
            sb.append("  (").append(ranking.size() - top).append(" more locks, --top)\n");
        }
        return sb.toString();
    }

    /** The answer to one question: the prediction, how far to trust it, and what the replay assumes. */
    public static String text(WhatIf.Prediction p) {
        StringBuilder sb = new StringBuilder();
        sb.append("what if ").append(question(p)).append('\n');
        sb.append(String.format(Locale.ROOT, "  predicted throughput change: %s  (confidence %s)%n", pct(p.changePct()),
                p.confidence()));
        sb.append(String.format(Locale.ROOT, "  each quarter of the recording replayed alone: %s%n", range(p)));
        sb.append(String.format(Locale.ROOT, "  holds changed: %d, %.0f%% of them recorded whole (the rest estimated)%n",
                p.holds(), p.holdsSeenPct()));
        sb.append("  waited for most as recorded: ").append(label(p.topLockBefore())).append('\n');
        sb.append(String.format(Locale.ROOT, "  waited for most after the change: %s%s%n", label(p.topLockAfter()),
                p.topLockAfter() == null ? "" : String.format(Locale.ROOT, " (%.0f%% of the replayed lock wait)",
                        p.topWaitSharePct())));
        if (p.truncated()) {
            sb.append(String.format(Locale.ROOT, "  replayed the first %.1f s of the recording only (the bound on the "
                    + "trace: %s)%n", p.replayedNanos() / 1e9, "about half a million holds"));
        }
        if (p.topLockAfter() == null && p.changePct() > 0) {
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

    /** One prediction: {@code lock, kind, site, factor, removed, changePct, lowPct, highPct, parts, confidence,
     * topLockBefore, topLockAfter, topWaitSharePct, holds, holdsSeenPct, forcedGrants, replayedNanos, truncated}. */
    public static ObjectNode json(WhatIf.Prediction p) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("lock", p.lock() == null ? null : p.lock().label());
        o.put("kind", p.lock() == null ? null : p.lock().kind().label());
        o.put("site", p.site());
        o.put("factor", p.factor());
        o.put("removed", p.removed());
        o.put("changePct", round(p.changePct()));
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
        return o;
    }

    /** The ranked table as a JSON array. */
    public static ArrayNode json(List<WhatIf.Prediction> ranking) {
        ArrayNode a = MAPPER.createArrayNode();
        ranking.forEach(p -> a.add(json(p)));
        return a;
    }

    /** What the replay assumes, as a JSON array of sentences. */
    public static ArrayNode assumptions() {
        ArrayNode a = MAPPER.createArrayNode();
        WhatIf.ASSUMPTIONS.forEach(a::add);
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

    private static String label(LockId id) {
        return id == null ? "(no lock waited for)" : id.label();
    }

    private static BigDecimal round(double v) {
        return Double.isNaN(v) ? null : BigDecimal.valueOf(v).setScale(2, RoundingMode.HALF_UP);
    }
}
