package dev.lockscope.report;

import dev.lockscope.analysis.LockContention;
import dev.lockscope.core.LockTable;

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
