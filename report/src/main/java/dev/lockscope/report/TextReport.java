package dev.lockscope.report;

import dev.lockscope.report.text.Prose;

import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.StackBudget;
import dev.lockscope.core.LockLabels;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockTable;
import dev.lockscope.report.blame.BlameTextReport;
import dev.lockscope.report.cpu.ThreadCpuReport;
import dev.lockscope.report.deep.DeepTextReport;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.rules.RuleResult;
import dev.lockscope.report.rules.Severity;
import dev.lockscope.report.rules.WaitClass;
import dev.lockscope.report.rules.WaitClasses;
import dev.lockscope.report.whatif.WhatIfReport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The report as text: the park-contention table, the findings and the blame tree. The table itself is
 * core's {@link LockTable}, the one the agent prints at JVM exit, so {@code lockscope report} and the
 * agent look the same.
 */
public final class TextReport {
    private TextReport() {
    }

    /**
     * The first screen, then the rest: {@link #findings} (under a {@link LockTable#noSignificantContention}
     * line when nothing reaches its threshold), the table of contention (idle locks left out, they are the
     * idle section's), the idle pools, then what-if, the blame tree, and {@link #htmlPointer} when an HTML
     * report was written. The agent's exit table opens alike.
     *
     * @param html the HTML report written with this one, or null
     */
    public static String render(Report report, Path html) {
        return render(report, html, Integer.MAX_VALUE);
    }

    /**
     * The same with every section cut to its first {@code top} entries (locks, findings, idle pools,
     * blame groups at each level), each cut saying how many it left out; JSON and HTML keep everything.
     */
    public static String render(Report report, Path html, int top) {
        List<String> header = report.cpuTimes() == null ? List.of() : List.of(ThreadCpuReport.headerLine(report.cpuTimes()));
        Predicate<LockMetrics> idle = lock -> report.waits().verdictOf(lock).waitClass() == WaitClass.IDLE;
        StringBuilder sb = new StringBuilder(firstLine(report)).append(findings(report, top).substring(1)).append('\n')
                .append(render(report.contention(), top, header, idle));
        sb.append(idle(report, top)).append(WhatIfReport.section(report.whatWouldHelp(), top, false, report.contention().rowLabels()))
                .append(report.measured().isEmpty() ? "" : "\n" + WhatIfReport.measuredText(report.measured()))
                .append(System.lineSeparator())
                .append(BlameTextReport.render(report.blame(), top, report.contention().rowLabels()));
        if (report.deep() != null) {
            sb.append(DeepTextReport.render(report.deep(), top));
        }
        if (report.cpuTimes() != null) {
            sb.append(ThreadCpuReport.text(report.cpuTimes(), top));
        }
        if (html != null) {
            sb.append(htmlPointer(html)).append('\n');
        }
        return sb.toString();
    }

    /**
     * {@link LockTable#noSignificantContention} of the report's contention rows (the locks classified as
     * contention), with its line end; empty when the largest is significant.
     */
    public static String firstLine(Report report) {
        List<LockMetrics> rows = report.contention().rows();
        List<LockMetrics> contention = rows.stream()
                .filter(lock -> report.waits().verdictOf(lock).waitClass() == WaitClass.CONTENTION).toList();
        String line = LockTable.noSignificantContention(contention, LockLabels.of(rows));
        return line.isEmpty() ? "" : line + "\n";
    }

    /**
     * "top findings:" and one item per finding, then one item per rule that could not be evaluated,
     * naming the events the recording lacks; preceded by an empty line.
     */
    public static String findings(Report report) {
        return findings(report, Integer.MAX_VALUE);
    }

    /** The same with at most {@code top} findings. */
    public static String findings(Report report, int top) {
        StringBuilder sb = new StringBuilder("\ntop findings:\n");
        List<RuleResult> shown = report.findings();
        for (RuleResult finding : shown.subList(0, Math.min(top, shown.size()))) {
            LockTable.wrap(sb, finding.message().replace("`", ""), "  - ", "    ");
        }
        if (shown.size() > top) {
            sb.append("  (").append(shown.size() - top).append(" more, --top)\n");
        }
        for (RuleResult r : report.rules()) {
            if (r.severity() == Severity.NA && !report.findings().contains(r)) {
                LockTable.wrap(sb, "not evaluated: " + r.rule() + " (no " + String.join(" or ", r.missingEvents())
                        + " events in the recording)", "  - ", "    ");
            }
        }
        return sb.toString();
    }

    /**
     * "idle" and one line per pool of threads that waited for work (not contention), with the rules
     * that said so; empty when no wait was idle; preceded by an empty line.
     */
    public static String idle(Report report, int top) {
        List<WaitClasses.IdlePool> pools = report.waits().idlePools();
        if (pools.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\nidle (threads waiting for work, not contention):\n");
        for (WaitClasses.IdlePool p : pools.subList(0, Math.min(top, pools.size()))) {
            sb.append(LockTable.clipLines(String.format(Locale.ROOT, "  %-40s %10.1f s in %s  (rule %s)",
                    LockTable.abbreviate(p.pool(), 40), p.nanos() / 1e9, Prose.count(p.waits(), "wait"),
                    String.join(", ", p.rules())))).append('\n');
        }
        if (pools.size() > top) {
            sb.append("  (").append(pools.size() - top).append(" more pools, --top)\n");
        }
        return sb.toString();
    }

    /** The last line of the terminal output when an HTML report was written. */
    public static String htmlPointer(Path html) {
        return "lockscope: interactive report (open in a browser): " + html;
    }

    public static String render(LockContention contention) {
        return render(contention, Integer.MAX_VALUE);
    }

    /**
     * Locks with less of all the waiting get a row but no details in the text (JSON and HTML have them):
     * at 1%, Derby under 16 threads on a loaded machine detailed six locks of 1-2% each (class loading,
     * page latches), 96 of its 209 lines. Nor do locks under {@link LockTable#SIGNIFICANT_PCT} of wall time
     * (each still a row, and a finding from {@link LockTable#FINDING_PCT}): on Jetty under load every row was a
     * class-initialisation wait of 0.3%, and their details 170 of 330 lines.
     */
    static final double DETAIL_SHARE = 0.03;

    /** The table of the first {@code top} locks. */
    public static String render(LockContention contention, int top) {
        return render(contention, top, List.of(), lock -> false);
    }

    /**
     * The same with {@code header} lines under the recording's (the machine's steal time), and without the locks
     * {@code idle} says only idle threads waited for (the report shows their time apart, one line per pool).
     */
    static String render(LockContention contention, int top, List<String> header, Predicate<LockMetrics> idle) {
        List<String> notes = new ArrayList<>();
        if (contention.parts().isEmpty()) {
            notes.add(String.format(Locale.ROOT, "recording %s: %.2f s from %s", contention.source(),
                    contention.durationNanos() / 1e9, JsonReport.instant(contention.startNanos())));
        } else {
            for (LockContention part : contention.parts()) {
                notes.add(String.format(Locale.ROOT, "recording %s: %.2f s from %s", part.source(),
                        part.durationNanos() / 1e9, JsonReport.instant(part.startNanos())));
            }
        }
        notes.addAll(header);
        long collection = contention.options().collectionThreshold();
        long print = contention.options().printThreshold();
        if (collection > 0) {
            notes.add("collection threshold " + collection + ": the first " + collection
                    + " parks on each lock are counted but not measured");
        }
        if (contention.sampledParks() > 0) {
            notes.add(sampledParksNote(contention.sampledParks()));
        }
        if (contention.stackBudget().dropped()) {
            notes.add(stackBudgetNote(contention.stackBudget()));
        }
        if (contention.belowPrintThreshold() > 0) {
            notes.add(Prose.count(contention.belowPrintThreshold(), "more lock") + " with fewer than " + Prose.count(print, "park")
                    + " left out (print threshold)");
        }
        if (contention.profilersOwnWaits() > 0) {
            notes.add(LockTable.profilersOwnNote(contention.profilersOwnWaits()));
        }
        List<LockMetrics> locks = contention.rows();
        // the names the findings, blame and JSON give the rows: unique among all of them, not only those shown
        java.util.Map<LockMetrics, String> labels = LockLabels.of(locks);
        List<LockMetrics> busy = locks.stream().filter(idle.negate()).toList();
        if (busy.size() < locks.size()) {
            notes.add(LockTable.idleNote(locks.size() - busy.size()) + ": the idle section below sums them per pool");
            locks = busy;
        }
        if (locks.size() > top) {
            notes.add(Prose.count(locks.size() - top, contention.options().byInstance() ? "more lock" : "more lock site")
                    + " left out (--top " + top + "; JSON and HTML have all)");
            locks = locks.subList(0, top);
        }
        if (contention.parts().isEmpty()) {
            return LockTable.render("lockscope: lock contention in " + contention.source().getFileName(),
                    locks, print, notes, DETAIL_SHARE, LockTable.SIGNIFICANT_PCT, labels);
        }
        return LockTable.render("lockscope: lock contention in " + Prose.count(contention.parts().size(), "recording")
                + " merged", locks, print, notes, DETAIL_SHARE, LockTable.SIGNIFICANT_PCT, labels) + perRecording(contention, locks);
    }

    /** What a table of a recording with sampled short parks says about them (the text table and the HTML page). */
    public static String sampledParksNote(long sampledParks) {
        return "short parks sampled by the agent (" + Prose.count(sampledParks, "recorded park")
                + " under its sampleBelow, or idle ones under 10 ms, each standing for 1/p like it): blame and profiles estimate them; this table is exact";
    }

    /** {@link LockTable#stackBudgetNote} of a recording's stack budget. */
    public static String stackBudgetNote(StackBudget b) {
        return LockTable.stackBudgetNote(b.perSecond(), b.parksDropped(), b.parkNanosDropped(), b.unparksDropped());
    }

    /** Recordings side by side in one line each: more would not fit the width. */
    private static final int COLUMNS = 6;

    /**
     * The merged rows' wait in each recording: one column per recording, the highest marked {@code *}
     * when it is more than twice the median of the row; past {@value #COLUMNS} recordings, the median,
     * the highest and the recording that had it.
     */
    static String perRecording(LockContention contention, List<LockMetrics> rows) {
        List<LockContention> parts = contention.parts();
        StringBuilder sb = new StringBuilder("\n\nwait per recording (ms; * more than twice the row's median):\n");
        if (parts.size() <= COLUMNS) {
            sb.append("  #  ");
            for (LockContention p : parts) {
                sb.append(String.format(Locale.ROOT, " %12s", LockTable.abbreviate(p.source().getFileName().toString(), 12)));
            }
            sb.append('\n');
        }
        int i = 1;
        for (LockMetrics row : rows) {
            long[] waits = contention.waitPerPart(row);
            long median = median(waits);
            int max = 0;
            for (int k = 1; k < waits.length; k++) {
                max = waits[k] > waits[max] ? k : max;
            }
            boolean outlier = waits[max] > 2 * median;
            if (parts.size() <= COLUMNS) {
                sb.append(String.format(Locale.ROOT, "  %-3d", i++));
                for (int k = 0; k < waits.length; k++) {
                    sb.append(String.format(Locale.ROOT, " %11.1f%s", waits[k] / 1e6, k == max && outlier ? "*" : " "));
                }
            } else {
                sb.append(String.format(Locale.ROOT, "  %-3d median %.1f, highest %.1f%s in %s", i++, median / 1e6,
                        waits[max] / 1e6, outlier ? "*" : "", parts.get(max).source().getFileName()));
            }
            sb.append('\n');
        }
        return LockTable.clipLines(sb.toString());
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
