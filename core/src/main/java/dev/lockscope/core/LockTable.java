package dev.lockscope.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Renders the park-contention table of seed 000 §3.8 as plain text, one block per lock, sized for a
 * 100-column terminal. Used by the agent (exit and dump output) and by {@code lockscope report}, so
 * both print the same thing.
 */
public final class LockTable {
    private static final int MAX_FRAMES = 8;

    private LockTable() {
    }

    /** Locks sorted as every report sorts them: total wait descending, then class and hash. */
    public static List<LockMetrics> ranked(List<LockMetrics> locks) {
        List<LockMetrics> sorted = new ArrayList<>(locks);
        sorted.sort(RANKING);
        return sorted;
    }

    public static final Comparator<LockMetrics> RANKING = Comparator
            .comparingLong(LockMetrics::totalWaitNanos).reversed()
            .thenComparing(LockMetrics::timesParked, Comparator.reverseOrder())
            .thenComparing(LockMetrics::className)
            .thenComparing(LockMetrics::identityHash);

    /**
     * @param title          first line, e.g. "lockscope: lock contention at JVM exit"
     * @param locks          locks to print (filtered by the caller's print threshold)
     * @param printThreshold §3.3.2: locks with fewer parks were left out; echoed in the header
     */
    public static String render(String title, List<LockMetrics> locks, long printThreshold, List<String> notes) {
        StringBuilder sb = new StringBuilder();
        sb.append(title).append('\n');
        for (String note : notes) {
            sb.append("  ").append(note).append('\n');
        }
        List<LockMetrics> sorted = ranked(locks);
        if (sorted.isEmpty()) {
            sb.append("  no contended locks");
            if (printThreshold > 0) {
                sb.append(" with at least ").append(printThreshold).append(" parks");
            }
            sb.append('\n');
            return sb.toString();
        }
        sb.append(String.format(Locale.ROOT, "  %-3s %-7s %8s %5s %11s %10s %8s  %s%n",
                "#", "kind", "parks", "peak", "wait ms", "avg hold", "%real", "lock"));
        int i = 1;
        for (LockMetrics m : sorted) {
            sb.append(String.format(Locale.ROOT, "  %-3d %-7s %8d %5d %11s %10s %8s  %s%n",
                    i++, m.kind().label(), m.timesParked(), m.peakParked(), ms(m.threadTimeNanos()),
                    ms(m.avgHoldNanos()), pct(m.realTimeUtilPct()), shortName(m.className()) + "@" + m.identityHash()));
        }
        sb.append('\n');
        i = 1;
        String verb = "parked";
        for (LockMetrics m : sorted) {
            verb = m.kind() == LockKind.MONITOR ? "blocked" : "parked";
            sb.append(String.format(Locale.ROOT, "[%d] %s %s @%s%n", i++, m.kind().label(), m.className(), m.identityHash()));
            sb.append(String.format(Locale.ROOT, "    first %s by \"%s\"%n", verb, m.firstThread()));
            int shown = 0;
            for (String frame : m.firstFrames()) {
                if (shown++ == MAX_FRAMES) {
                    sb.append("      ... ").append(m.firstFrames().size() - MAX_FRAMES).append(" more\n");
                    break;
                }
                sb.append("      at ").append(frame).append('\n');
            }
            sb.append(String.format(Locale.ROOT, "    times %s %d, %s now %d, peak %s %d%n",
                    verb, m.timesParked(), verb, m.parkedNow(), verb, m.peakParked()));
            sb.append(String.format(Locale.ROOT, "    thread-time %s ms, real-time %s ms, avg %s time %s ms, avg hold time %s ms%n",
                    ms(m.threadTimeNanos()), ms(m.realTimeNanos()), m.kind() == LockKind.MONITOR ? "block" : "park",
                    ms(m.avgParkNanos()), ms(m.avgHoldNanos())));
            sb.append(String.format(Locale.ROOT, "    util %%real-time %s, %%thread-time %s, %%real-life-time %s, %%thread-life-time %s%n",
                    pct(m.realTimeUtilPct()), pct(m.threadTimeUtilPct()), pct(m.realLifeTimeUtilPct()),
                    pct(m.threadLifeTimeUtilPct())));
        }
        return sb.toString();
    }

    static String ms(double nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    static String pct(double pct) {
        return String.format(Locale.ROOT, "%.2f", pct);
    }

    /** {@code java.util.concurrent.locks.ReentrantLock$NonfairSync} → {@code ReentrantLock$NonfairSync}. */
    public static String shortName(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? className : className.substring(dot + 1);
    }
}
