package dev.lockscope.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders the park-contention table of the J9 park-contention report §3.8 as plain text, one block per lock, sized for a
 * 100-column terminal: no line is longer than {@link #WIDTH} (long frames lose package letters
 * first, then their start; the JSON report keeps them whole). Used by the agent (exit and dump output) and by {@code lockscope report}, so
 * both print the same thing.
 */
public final class LockTable {
    private static final int MAX_FRAMES = 8;
    /** The widest line the table prints. */
    public static final int WIDTH = 100;

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
     * {@code rows} without the profiler's own locks ({@link #isProfilersOwn}); {@link #profilersOwnNote} added to
     * {@code notes} counts their waits. The agent's exit table; the report leaves them out once, in its model.
     */
    public static List<LockMetrics> withoutProfilersOwn(List<LockMetrics> rows, List<String> notes) {
        List<LockMetrics> application = new ArrayList<>(rows.size());
        long waits = 0;
        for (LockMetrics row : rows) {
            if (isProfilersOwn(row)) {
                waits += row.timesParked();
            } else {
                application.add(row);
            }
        }
        if (application.size() < rows.size()) {
            notes.add(profilersOwnNote(waits));
        }
        return application;
    }

    /**
     * {@code rows} without those only idle threads waited for, by {@link IdlePlaces}' rule on the first waiter's
     * stack (a worker polling its queue, java.util.Timer's thread, an idle {@code main} in a termination or latch
     * wait); {@link #idleNote} added to {@code notes} counts them. The agent's exit table, which has no owner blame
     * to weigh; the report's classifier applies the same places to its blame rows' stacks, weighted by time.
     */
    public static List<LockMetrics> withoutIdle(List<LockMetrics> rows, List<String> notes) {
        List<LockMetrics> busy = new ArrayList<>(rows.size());
        for (LockMetrics row : rows) {
            if (IdlePlaces.ruleOf(row) == null) {
                busy.add(row);
            }
        }
        if (busy.size() < rows.size()) {
            notes.add(idleNote(rows.size() - busy.size()));
        }
        return busy;
    }

    /** What every table says of the {@code locks} that only idle threads waited for, which it left out. */
    public static String idleNote(int locks) {
        return locks + (locks == 1 ? " lock" : " locks") + " only idle threads waited for (workers waiting for work) left out";
    }

    /**
     * Whether a row is the profiler's own ({@link FrameClassifier#isProfilersOwn}: JFR's, lockscope's, its metrics
     * server's), or, where its first wait has no stack, first waited for by one of the profiler's threads.
     */
    public static boolean isProfilersOwn(LockMetrics row) {
        return FrameClassifier.isProfilersOwn(row.firstFrames())
                || row.firstFrames().isEmpty() && FrameClassifier.isProfilersThread(row.firstThread());
    }

    /** What every table says of the {@code waits} on the profiler's own locks it left out. */
    public static String profilersOwnNote(long waits) {
        return waits + (waits == 1 ? " wait" : " waits") + " on the profiler's own locks (JFR's, lockscope's, "
                + "its metrics server's) left out";
    }

    /**
     * What a table says when the agent's stack budget refused events (the exit table, `lockscope report`'s text and
     * HTML page): how many parks and the waiting they stood for, how many releasers' stacks, and the option that
     * raises the budget. Nothing to say when nothing was refused.
     */
    public static String stackBudgetNote(long perSecond, long parksDropped, long parkNanosDropped, long unparksDropped) {
        String parks = parksDropped + (parksDropped == 1 ? " park event" : " park events")
                + String.format(Locale.ROOT, " (%.1f ms of waiting)", parkNanosDropped / 1e6);
        String unparks = unparksDropped + (unparksDropped == 1 ? " releaser's stack" : " releaser's stacks");
        String what = parksDropped > 0 && unparksDropped > 0 ? parks + " and " + unparks : parksDropped > 0 ? parks : unparks;
        String budget = perSecond > 0 ? String.format(Locale.ROOT, "%,d", perSecond) + " events with a call chain a second"
                : "its budget";
        return "the agent's stack budget (" + budget + ") refused " + what
                + ": blame and profiles leave them out, this table counts them (record with a higher --stack-budget, or 0 for none)";
    }

    /**
     * The share of wall time (a row's %real) the largest contention must reach to be a finding. Under it, the
     * lock had waiters for less than one twentieth of the run: taking it away entirely could shorten the run
     * by at most that much, which is within the run-to-run spread of the applications the tests profile.
     */
    public static final double SIGNIFICANT_PCT = 5.0;

    /**
     * The least share of wall time (%real) of a row that is a finding: a thread that waited a millisecond at startup
     * for another's class initialisation is real contention, and not the first thing to show anyone.
     */
    public static final double FINDING_PCT = 0.5;

    /**
     * The first line of a first screen when nothing is significantly contended: {@code no significant lock
     * contention: the largest, <label>, cost 0.8% of wall time (a finding needs 5%)}; empty when the largest of
     * {@code contention} (rows of contention only, idle and the profiler's own left out) reaches
     * {@link #SIGNIFICANT_PCT}. A row with no stack is not counted: it names no place to look at.
     */
    public static String noSignificantContention(List<LockMetrics> contention, Map<LockMetrics, String> labels) {
        LockMetrics largest = null;
        for (LockMetrics row : contention) {
            if (!row.firstFrames().isEmpty() && (largest == null || row.realTimeUtilPct() > largest.realTimeUtilPct())) {
                largest = row;
            }
        }
        if (largest == null) {
            return "no significant lock contention: no contended lock with a stack";
        }
        if (largest.realTimeUtilPct() >= SIGNIFICANT_PCT) {
            return "";
        }
        String label = labels.containsKey(largest) ? labels.get(largest) : LockLabels.of(List.of(largest)).get(largest);
        return String.format(Locale.ROOT, "no significant lock contention: the largest, %s, cost %.1f%% of wall time "
                + "(a finding needs %.0f%%)", label, largest.realTimeUtilPct(), SIGNIFICANT_PCT);
    }

    /**
     * @param title          first line, e.g. "lockscope: lock contention at JVM exit"
     * @param locks          locks to print (filtered by the caller's print threshold)
     * @param printThreshold §3.3.2: locks with fewer parks were left out; echoed in the header
     */
    public static String render(String title, List<LockMetrics> locks, long printThreshold, List<String> notes) {
        return render(title, locks, printThreshold, notes, 0);
    }

    /**
     * The same with the per-lock details only of the locks that carry at least {@code detailShare} of
     * all the table's waiting (thread-time): a report that stays short on a real application, where
     * a handful of locks hold nearly all the waiting and dozens share the rest. The others keep their
     * row; one line says how many lost their details.
     */
    public static String render(String title, List<LockMetrics> locks, long printThreshold, List<String> notes,
                                double detailShare) {
        return render(title, locks, printThreshold, notes, detailShare, 0);
    }

    /** The same, details also only of the locks with at least {@code detailPct} of wall time (%real). */
    public static String render(String title, List<LockMetrics> locks, long printThreshold, List<String> notes,
                                double detailShare, double detailPct) {
        return render(title, locks, printThreshold, notes, detailShare, detailPct, null);
    }

    /**
     * The same, each lock named by {@code labels} ({@link LockLabels#of} of every row of the report, not only of the
     * rows shown: the findings, blame and JSON name them so); null for labels unique among {@code locks}.
     */
    public static String render(String title, List<LockMetrics> locks, long printThreshold, List<String> notes,
                                double detailShare, double detailPct, Map<LockMetrics, String> labels) {
        StringBuilder sb = new StringBuilder();
        sb.append(title).append('\n');
        for (String note : notes) {
            appendNote(sb, note);
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
        if (labels == null) {
            labels = LockLabels.of(sorted);
        }
        rows(sb, sorted, labels);
        sb.append('\n');
        long allWait = 0;
        for (LockMetrics m : sorted) {
            allWait += m.threadTimeNanos();
        }
        int i = 1;
        int undetailed = 0;
        String verb = "parked";
        for (LockMetrics m : sorted) {
            verb = switch (m.kind()) {
                case MONITOR -> "blocked";
                case WAIT -> "waited";
                case PARK -> "parked";
            };
            if (m.threadTimeNanos() < detailShare * allWait || m.realTimeUtilPct() < detailPct) {
                i++;
                undetailed++;
                continue;
            }
            sb.append(String.format(Locale.ROOT, "[%d] %s %s%n", i++, m.kind().label(), labels.get(m)));
            sb.append("    ").append(m.instances() == 1 ? "lock " : m.instances() + " objects of ")
                    .append(abbreviate(m.className(), WIDTH - 20)).append(m.isSite() ? "" : " @" + m.identityHash()).append('\n');
            sb.append(String.format(Locale.ROOT, "    first %s by \"%s\"%n", verb, m.firstThread()));
            int shown = 0;
            for (String frame : m.firstFrames()) {
                if (shown++ == MAX_FRAMES) {
                    sb.append("      ... ").append(m.firstFrames().size() - MAX_FRAMES).append(" more\n");
                    break;
                }
                sb.append("      at ").append(abbreviate(frame, WIDTH - 9)).append('\n');
            }
            sb.append(String.format(Locale.ROOT, "    times %s %d, %s now %d, peak %s %d%n",
                    verb, m.timesParked(), verb, m.parkedNow(), verb, m.peakParked()));
            sb.append(String.format(Locale.ROOT, "    thread-time %s ms, real-time %s ms%n",
                    ms(m.threadTimeNanos()), ms(m.realTimeNanos())));
            sb.append(String.format(Locale.ROOT, "    avg %s time %s ms, avg hold time %s ms%n",
                    m.kind() == LockKind.PARK ? "park" : m.kind() == LockKind.MONITOR ? "block" : "wait", ms(m.avgParkNanos()), ms(m.avgHoldNanos())));
            sb.append(String.format(Locale.ROOT, "    util %%real-time %s, %%thread-time %s%n",
                    pct(m.realTimeUtilPct()), pct(m.threadTimeUtilPct())));
            sb.append(String.format(Locale.ROOT, "    util %%real-life-time %s, %%thread-life-time %s%n",
                    pct(m.realLifeTimeUtilPct()), pct(m.threadLifeTimeUtilPct())));
        }
        if (undetailed > 0) {
            sb.append(String.format(Locale.ROOT, "(%d %s under %s%% of all waiting%s: no details here; JSON and HTML have them)%n",
                    undetailed, undetailed == 1 ? "lock" : "locks", pct(100 * detailShare),
                    detailPct > 0 ? " or " + pct(detailPct) + "% of wall time" : ""));
        }
        return clipLines(sb.toString());
    }

    /**
     * The short form: the notes and one line per lock, no per-lock details (what the agent prints at
     * exit unless asked for the full table).
     *
     * @param top     at most this many lines; the rest is counted in a last note
     * @param more    what the last note says where the rest is (e.g. the recording to report on)
     */
    public static String renderShort(String title, List<LockMetrics> locks, long printThreshold, List<String> notes,
                                     int top, String more) {
        return renderShort(title, locks, printThreshold, notes, top, more, null);
    }

    /** The same, each lock named by {@code labels} (see {@link #render(String, List, long, List, double, double, Map)}). */
    public static String renderShort(String title, List<LockMetrics> locks, long printThreshold, List<String> notes,
                                     int top, String more, Map<LockMetrics, String> labels) {
        List<LockMetrics> sorted = ranked(locks);
        if (sorted.isEmpty()) {
            return render(title, sorted, printThreshold, notes);
        }
        StringBuilder sb = new StringBuilder();
        sb.append(title).append('\n');
        for (String note : notes) {
            appendNote(sb, note);
        }
        // labels unique among all rows, not only the shown ones: the report names the rest alike
        rows(sb, sorted.subList(0, Math.min(top, sorted.size())), labels != null ? labels : LockLabels.of(sorted));
        if (sorted.size() > top) {
            String noun = sorted.get(0).isSite() ? " more lock site" : " more lock";
            sb.append("  (").append(sorted.size() - top).append(noun).append(sorted.size() - top == 1 ? "" : "s")
                    .append(more.isEmpty() ? "" : "; " + more).append(")\n");
        }
        return clipLines(sb.toString());
    }

    /**
     * The header and one line per lock, named by {@link LockLabels}: a name longer than the lock column goes on
     * a line of its own under the row, whole (a name cut to fit told Caffeine's two map rows apart no more).
     */
    private static void rows(StringBuilder sb, List<LockMetrics> sorted, Map<LockMetrics, String> labels) {
        sb.append(String.format(Locale.ROOT, "  %-3s %-7s %8s %5s %11s %10s %8s  %s%n",
                "#", "kind", "parks", "peak", "wait ms", "avg hold", "%real", "lock"));
        int i = 1;
        for (LockMetrics m : sorted) {
            String label = labels.get(m);
            boolean fits = label.length() <= WIDTH - 62;
            sb.append(String.format(Locale.ROOT, "  %-3d %-7s %8d %5d %11s %10s %8s  %s%n",
                    i++, m.kind().label(), m.timesParked(), m.peakParked(), ms(m.threadTimeNanos()),
                    ms(m.avgHoldNanos()), pct(m.realTimeUtilPct()), fits ? label : "").stripTrailing() + "\n");
            if (!fits) {
                sb.append("      ").append(abbreviate(label, WIDTH - 6)).append('\n');
            }
        }
    }

    /** A note under the title, wrapped at spaces ({@link #wrap}): notes are sentences, and clipping would cut off their ends. */
    static void appendNote(StringBuilder sb, String note) {
        wrap(sb, note, "  ", "    ");
    }

    /**
     * {@code text} in lines shorter than {@link #WIDTH} columns, broken at spaces, the first begun with {@code first},
     * the rest with {@code next}; a word longer than a line stays whole on a line of its own.
     */
    public static void wrap(StringBuilder sb, String text, String first, String next) {
        StringBuilder line = new StringBuilder(first);
        for (String word : text.split(" ")) {
            if (line.length() + word.length() + 1 > WIDTH && line.length() > next.length()) {
                sb.append(line.toString().stripTrailing()).append('\n');
                line = new StringBuilder(next);
            }
            line.append(word).append(' ');
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }

    /** Last resort for what the layout cannot bound (thread names, a note's over-long word, huge numbers). */
    public static String clipLines(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (String line : text.split("\n", -1)) {
            if (out.length() > 0) {
                out.append('\n');
            }
            out.append(line.length() <= WIDTH ? line : line.substring(0, WIDTH - 3) + "...");
        }
        return out.toString();
    }

    /**
     * Shortens {@code java.util.concurrent.locks.X.m:1} to at most {@code max} characters: package
     * segments become their first letter from the left ({@code j.u.c.locks.X.m:1}), then the start
     * is cut ({@code ...X.m:1}), so the class, method and line, the informative end, survive.
     */
    public static String abbreviate(String frame, int max) {
        if (frame.length() <= max) {
            return frame;
        }
        String[] parts = frame.split("\\.", -1);
        StringBuilder shortened = new StringBuilder(frame);
        for (int i = 0; i < parts.length - 2 && shortened.length() > max; i++) {
            if (parts[i].isEmpty() || !Character.isLowerCase(parts[i].charAt(0))) {
                break; // only package segments, which start lower-case by convention
            }
            parts[i] = parts[i].substring(0, 1);
            shortened = new StringBuilder(String.join(".", parts));
        }
        String s = shortened.toString();
        return s.length() <= max ? s : "..." + s.substring(s.length() - (max - 3));
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
