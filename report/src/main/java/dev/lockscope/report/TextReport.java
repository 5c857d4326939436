package dev.lockscope.report;

import dev.lockscope.analysis.LockContention;
import dev.lockscope.core.LockTable;
import dev.lockscope.report.blame.BlameTextReport;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.rules.RuleResult;
import dev.lockscope.report.rules.Severity;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report as text: the park-contention table, the findings and the blame tree. The table itself is
 * core's {@link LockTable}, the one the agent prints at JVM exit, so {@code lockscope report} and the
 * agent look the same.
 */
public final class TextReport {
    private TextReport() {
    }

    /**
     * The table, then the top findings (sentences, {@code `code`} marks dropped) wrapped to
     * {@link LockTable#WIDTH} columns, then the blame tree, then {@link #htmlPointer} when an HTML
     * report was written.
     *
     * @param html the HTML report written with this one, or null
     */
    public static String render(Report report, Path html) {
        StringBuilder sb = new StringBuilder(render(report.contention()));
        sb.append(findings(report)).append(System.lineSeparator()).append(BlameTextReport.render(report.blame()));
        if (html != null) {
            sb.append(htmlPointer(html)).append('\n');
        }
        return sb.toString();
    }

    /**
     * "top findings:" and one item per finding, then one item per rule that could not be evaluated,
     * naming the events the recording lacks; preceded by an empty line.
     */
    public static String findings(Report report) {
        StringBuilder sb = new StringBuilder("\ntop findings:\n");
        for (RuleResult finding : report.findings()) {
            wrap(sb, finding.message().replace("`", ""), "  - ", "    ");
        }
        for (RuleResult r : report.rules()) {
            if (r.severity() == Severity.NA && !report.findings().contains(r)) {
                wrap(sb, "not evaluated: " + r.rule() + " (no " + String.join(" or ", r.missingEvents())
                        + " events in the recording)", "  - ", "    ");
            }
        }
        return sb.toString();
    }

    /** The last line of the terminal output when an HTML report was written. */
    public static String htmlPointer(Path html) {
        return "lockscope: interactive report (open in a browser): " + html;
    }

    private static void wrap(StringBuilder sb, String text, String first, String next) {
        StringBuilder line = new StringBuilder(first);
        for (String word : text.split(" ")) {
            if (line.length() + word.length() + 1 > LockTable.WIDTH && line.length() > next.length()) {
                sb.append(line.toString().stripTrailing()).append('\n');
                line = new StringBuilder(next);
            }
            line.append(word).append(' ');
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }

    public static String render(LockContention contention) {
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "recording %s: %.2f s from %s", contention.source(),
                contention.durationNanos() / 1e9, JsonReport.instant(contention.startNanos())));
        long collection = contention.options().collectionThreshold();
        long print = contention.options().printThreshold();
        if (collection > 0) {
            notes.add("collection threshold " + collection + ": the first " + collection
                    + " parks on each lock are counted but not measured");
        }
        if (contention.belowPrintThreshold() > 0) {
            notes.add(contention.belowPrintThreshold() + " more locks with fewer than " + print
                    + " parks left out (print threshold)");
        }
        return LockTable.render("lockscope: lock contention in " + contention.source().getFileName(),
                contention.locks(), print, notes);
    }
}
