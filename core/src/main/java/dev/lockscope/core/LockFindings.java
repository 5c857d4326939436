package dev.lockscope.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which lock rows are findings, and the first half of each finding's sentence: the same for the agent's exit
 * table and {@code dump} (which have the table only) and for {@code lockscope report}, whose findings go on to
 * say who held the lock, from owner blame. One finding per row of contention (idle rows and the profiler's own
 * already left out by the caller) that has waits, a stack, and at least {@link LockTable#FINDING_PCT} of the wall
 * time, ranked by that share (%real: the share of the run at least one thread waited for it).
 */
public final class LockFindings {
    private LockFindings() {
    }

    /** The first line of a list with no finding: nothing was contended. */
    public static final String NO_CONTENTION = "No contention in this recording: no thread waited for a lock that another "
            + "thread held.";

    /**
     * The rows of {@code contention} that are findings, the largest share of wall time first (ties in
     * {@code contention}'s order). A row without a stack (no site) is none: nobody could tell which code to change.
     */
    public static List<LockMetrics> of(List<LockMetrics> contention) {
        List<LockMetrics> out = new ArrayList<>();
        for (LockMetrics lock : contention) {
            if (isCandidate(lock) && lock.realTimeUtilPct() >= LockTable.FINDING_PCT) {
                out.add(lock);
            }
        }
        out.sort(Comparator.comparingDouble(LockMetrics::realTimeUtilPct).reversed());
        return out;
    }

    /** A row of contention that could be a finding at any share: it has waits and a stack. */
    private static boolean isCandidate(LockMetrics lock) {
        return lock.totalWaitNanos() > 0 && !lock.firstFrames().isEmpty();
    }

    /**
     * The one item of a list without findings: no contention at all, or the candidate with the largest share of
     * wall time and its wait (under {@link LockTable#FINDING_PCT}).
     */
    public static String none(List<LockMetrics> contention, Map<LockMetrics, String> labels) {
        LockMetrics largest = null;
        for (LockMetrics lock : contention) {
            if (isCandidate(lock) && (largest == null || lock.realTimeUtilPct() > largest.realTimeUtilPct())) {
                largest = lock;
            }
        }
        return largest == null ? NO_CONTENTION : NO_CONTENTION.replaceFirst("\\.$", "")
                + " for long enough to matter: the largest, `" + labels.get(largest) + "`, had waiters "
                + String.format(Locale.ROOT, "%.2f%% of wall time (%s of waiting in all)", largest.realTimeUtilPct(),
                waiting(largest.totalWaitNanos())) + ".";
    }

    /**
     * Which lock, where it was waited for, by how many threads, and its share of the wall time, without the final
     * stop: {@code `ReentrantLock at Orders.place:42` blocked 14 threads for 61% of wall time (12.3 s of waiting in
     * all)}.
     *
     * @param label         the row's name as the table gives it ({@link LockLabels})
     * @param waiterMethod  {@code Class.method} where most of the waiting was (owner blame), or null when not known: the
     *                      label names the row's acquiring frame
     * @param waiterThreads how many threads waited, or 0 when not known (then a lock object's peak of waiters at once)
     */
    public static String head(LockMetrics lock, String label, String waiterMethod, int waiterThreads) {
        String what = switch (lock.kind()) {
            case MONITOR -> "The monitor of `" + label + "`";
            case WAIT -> LockLabels.isClassInitialisation(lock) ? "`" + label + "`" : "Object.wait on `" + label + "`";
            case PARK -> "`" + label + "`";
        };
        // where most of the waiting was, when the row's name (its acquiring frame past lock wrappers) does not say it
        String where = waiterMethod == null || label.contains(waiterMethod) ? "" : " in `" + waiterMethod + "`";
        // a site's peak is that of one of its objects (Derby's row locks: 1 each, 16 threads in all): no count then
        String threads = waiterThreads > 0 ? waiterThreads + (waiterThreads == 1 ? " thread" : " threads")
                : lock.instances() > 1 ? "threads"
                : lock.peakParked() == 1 ? "1 thread at a time" : "up to " + lock.peakParked() + " threads at once";
        // a site's real-time is the union of its objects' waits (LockSites): a part of the wall time like any lock's
        return String.format(Locale.ROOT, "%s%s blocked %s for %.0f%% of wall time (%s of waiting in all)", what, where,
                threads, lock.realTimeUtilPct(), waiting(lock.totalWaitNanos()));
    }

    /** A wait in seconds from a second on, else in milliseconds: never {@code 0.0 s} for a lock that cost 30 ms. */
    static String waiting(long nanos) {
        if (nanos >= 950_000_000L) {
            return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
        }
        if (nanos < 10_000L) {
            return "under 0.01 ms";
        }
        return String.format(Locale.ROOT, nanos >= 10_000_000L ? "%.0f ms" : "%.2f ms", nanos / 1e6);
    }

    /**
     * {@code Class.method} of the innermost frame outside the JDK and lockscope (where the application asked for or
     * held the lock), or of the innermost frame when all are runtime frames; {@code ?} for no frames.
     */
    public static String appMethod(List<String> frames) {
        String chosen = null;
        for (String frame : frames) {
            if (chosen == null) {
                chosen = frame;
            }
            if (Frame.parse(frame).kind().isApplication()) {
                chosen = frame;
                break;
            }
        }
        return chosen == null ? "?" : Frame.parse(chosen).classAndMethod();
    }

    /**
     * The findings of a table alone (the agent's exit table and {@code dump}): {@code title}, one item per finding
     * ({@link #head}, at most {@code top}), or the one item of {@link #none}, then {@code whoHeld} in brackets: where
     * the rest of each sentence, who held the lock and in what code, is to be read.
     */
    public static String text(String title, List<LockMetrics> contention, Map<LockMetrics, String> labels, int top,
                              String whoHeld) {
        StringBuilder sb = new StringBuilder(title).append('\n');
        List<LockMetrics> findings = of(contention);
        if (findings.isEmpty()) {
            LockTable.wrap(sb, none(contention, labels).replace("`", ""), "  - ", "    ");
        }
        for (LockMetrics lock : findings.subList(0, Math.min(top, findings.size()))) {
            LockTable.wrap(sb, head(lock, labels.get(lock), null, 0).replace("`", "") + ".", "  - ", "    ");
        }
        if (findings.size() > top) {
            sb.append("  (").append(findings.size() - top).append(" more)\n");
        }
        LockTable.wrap(sb, "(" + whoHeld + ")", "  ", "    ");
        return sb.toString();
    }
}
