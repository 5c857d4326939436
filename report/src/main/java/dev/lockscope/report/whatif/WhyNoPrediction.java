package dev.lockscope.report.whatif;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.whatif.WhatIf;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.rules.WaitClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * For each of the report's first rows that the replay gave no trustworthy prediction (none, or only of low
 * confidence), which of the things the replay does not follow stopped it: sampled parks (the holds the others
 * would show are missing), {@code Object.wait} (a wait is not for a holder), a condition or queue (its waiters
 * wait for a signal, and nobody holds it), idle pool workers (waiting for work, not for a lock), many lock
 * objects in one row (the replay changes one object's holds). A row that none of these fits has a replay of low
 * confidence for the reasons {@link WhatIfReport} states.
 */
public final class WhyNoPrediction {
    /** The rows looked at: those the report's "what would help" considers. */
    static final int ROWS = 10;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The {@code java.util.concurrent} blockers that are locks (held by a thread); the others are conditions, queues, latches. */
    private static final List<String> LOCKS = List.of("java.util.concurrent.locks.ReentrantLock",
            "java.util.concurrent.locks.ReentrantReadWriteLock", "java.util.concurrent.locks.StampedLock");

    private WhyNoPrediction() {
    }

    /** One row the replay did not predict, and why. */
    public record Row(String lock, List<String> reasons) {
    }

    public static List<Row> of(Report report) {
        List<Row> out = new ArrayList<>();
        List<LockMetrics> rows = report.contention().sites();
        java.util.Map<LockMetrics, String> labels = dev.lockscope.core.LockLabels.of(rows);
        for (LockMetrics row : rows.subList(0, Math.min(ROWS, rows.size()))) {
            if (predicted(row, report.whatWouldHelp(), report.contention())) {
                continue;
            }
            out.add(new Row(labels.get(row), reasons(row,
                    report.waits().verdictOf(row).waitClass() == WaitClass.IDLE, report.contention().sampledParks() > 0, report.contention().stackBudget().parksDropped() > 0)));
        }
        return out;
    }

    /** Whether a prediction of medium or high confidence is for a lock counted in this row. */
    private static boolean predicted(LockMetrics row, List<WhatIf.Prediction> ranking,
                                     dev.lockscope.analysis.LockContention contention) {
        return ranking.stream().anyMatch(p -> !p.lowConfidence() && p.lock() != null
                && contention.rowOf(p.lock()).equals(row.id()));
    }

    /**
     * @param idle    the row's waits are idle
     * @param sampled the agent sampled the recording's short parks
     * @param refused the agent's stack budget refused some of the recording's park events
     */
    static List<String> reasons(LockMetrics row, boolean idle, boolean sampled, boolean refused) {
        List<String> why = new ArrayList<>();
        if (idle) {
            why.add("idle (threads waiting for work)");
        }
        String notHeld = notHeld(row);
        if (notHeld != null) {
            why.add(notHeld);
        }
        if (row.kind() == LockKind.PARK && sampled) {
            why.add("sampled parks (record with --sample-below 0)");
        }
        if (row.kind() == LockKind.PARK && refused) {
            why.add("parks the stack budget refused (record with --stack-budget 0)");
        }
        if (row.instances() > 1) {
            why.add(String.format(Locale.ROOT, "%d objects in one row (the replay changes one)", row.instances()));
        }
        if (why.isEmpty()) {
            why.add("low confidence (" + WhatIfReport.LOW_CONFIDENCE_WHY + ")");
        }
        return why;
    }

    /**
     * Why a row's waits are not for a lock some thread holds, which the replay would follow and the experiment
     * ({@code whatif --measure}) would lengthen: {@code Object.wait}, or a {@code java.util.concurrent} condition or
     * queue; null when the row is a lock's.
     */
    public static String notHeld(LockMetrics row) {
        if (row.kind() == LockKind.WAIT) {
            return "Object.wait (a wait for a notification, not for a holder)";
        }
        if (row.kind() == LockKind.PARK && row.className().startsWith("java.util.concurrent.")
                && LOCKS.stream().noneMatch(row.className()::startsWith)) {
            return "a condition or queue (nobody holds it)";
        }
        return null;
    }

    /** One line per row, under a heading; empty when every row has a prediction. */
    public static String text(Report report) {
        List<Row> rows = of(report);
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("no trustworthy prediction, and what stopped the replay:\n");
        for (Row r : rows) {
            sb.append("  ").append(r.lock()).append(": ").append(String.join("; ", r.reasons())).append('\n');
        }
        return sb.toString();
    }

    public static ArrayNode json(Report report) {
        ArrayNode a = MAPPER.createArrayNode();
        for (Row r : of(report)) {
            ObjectNode o = a.addObject();
            o.put("lock", r.lock());
            r.reasons().forEach(o.putArray("reasons")::add);
        }
        return a;
    }
}
