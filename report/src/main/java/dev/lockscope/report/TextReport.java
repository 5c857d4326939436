package dev.lockscope.report;

import dev.lockscope.analysis.LockContention;
import dev.lockscope.core.LockTable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The park-contention table of a recording as text. The table itself is core's {@link LockTable},
 * the one the agent prints at JVM exit, so {@code lockscope report} and the agent look the same.
 */
public final class TextReport {
    private TextReport() {
    }

    /**
     * The table, then the top findings (sentences, {@code `code`} marks dropped), wrapped to
     * {@link LockTable#WIDTH} columns, then {@link #htmlPointer} when an HTML report was written.
     *
     * @param html the HTML report written with this one, or null
     */
    public static String render(LockContention contention, List<String> findings, Path html) {
        StringBuilder sb = new StringBuilder(render(contention));
        if (!findings.isEmpty()) {
            sb.append("\ntop findings:\n");
            for (String finding : findings) {
                wrap(sb, finding.replace("`", ""), "  - ", "    ");
            }
        }
        if (html != null) {
            sb.append(htmlPointer(html)).append('\n');
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
