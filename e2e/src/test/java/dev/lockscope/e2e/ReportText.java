package dev.lockscope.e2e;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13's bounds on the text report of a real application at defaults, shared by the tests that run
 * one ({@link RealLibrariesIT}, {@link VirtualThreadServerIT}): the report stays short, and its
 * findings lead with contention, no idle wait among the first three. And issue 40's one table: the agent's table
 * at exit is the report's first rows.
 */
final class ReportText {
    /** The text report at defaults has fewer lines than this. */
    static final int MAX_LINES = 200;

    /**
     * Where idle threads wait (the report's idle places: pool queues, selectors, schedulers, Jetty's idle and
     * reserved threads, termination and join waits): a finding whose lock or waiters name one leads with an idle
     * wait. Where the owner held the lock may be one ("blocked in ScheduledExecutorScheduler.schedule ... held
     * in ScheduledThreadPoolExecutor$DelayedWorkQueue.take": callers of schedule() waiting while the scheduler's
     * thread takes its next task, real contention a full run found second), so that part is not checked.
     */
    private static final List<String> IDLE_PLACES = List.of("ThreadPoolExecutor.getTask", "awaitTermination", "Thread.join",
            "SelectorImpl", "SelectorManager", "DelayedWorkQueue", "ForkJoinPool.awaitWork", "ReservedThread",
            "VirtualThreadPool", "ReferenceQueue", "TimerThread");

    private static final Pattern IDLE_WORD = Pattern.compile("(?i)\\bidle\\b");

    private ReportText() {
    }

    /** Asserts the report is under {@link #MAX_LINES} lines. */
    static void assertShort(String text) {
        assertThat(text.lines().count()).as(text).isLessThan(MAX_LINES);
    }

    /** The top findings, whitespace folded; asserts there is one and the first three are not idle waits. */
    static List<String> findings(String text) {
        Matcher section = Pattern.compile("top findings:\\n(.*?)(?:\\n\\n|\\z)", Pattern.DOTALL).matcher(text);
        assertThat(section.find()).as(text).isTrue();
        List<String> out = new ArrayList<>();
        for (String f : section.group(1).split("\\n  - ")) {
            out.add(f.replaceFirst("^  - ", "").replaceAll("\\s+", " ").trim());
        }
        assertThat(out).as(text).isNotEmpty();
        for (String f : out.subList(0, Math.min(3, out.size()))) {
            // the word, not a class named for it (Jetty's IdleTimeout is where a pinned virtual thread blocked)
            assertThat(f).as(text).doesNotContainPattern(IDLE_WORD);
            String waited = f.split("; (it was held in|its holders were in|its owner was seen in|the threads that notified them held it in"
                    + "|the class was being initialised in|they waited for a release, made in) ", 2)[0];
            for (String place : IDLE_PLACES) {
                assertThat(waited).as(text).doesNotContain(place);
            }
        }
        return out;
    }

    /** The first line of the agent's table at exit, on the application's stderr. */
    static final String EXIT_TABLE = "lockscope: lock contention at JVM exit";
    /** The first line of {@code lockscope report}'s table. */
    static final String REPORT_TABLE = "lockscope: lock contention in";

    /** A table's rows, "kind parks label" and their %real, in order (the row lines under the header). */
    static Map<String, Double> tableRows(String table) {
        Map<String, Double> out = new LinkedHashMap<>();
        // a label too long for its column is on the next line, indented by six
        Matcher row = Pattern.compile("(?m)^  \\d+ +(\\w+) +(\\d+) +\\d+ +[\\d.]+ +[\\d.]+ +([\\d.]+)(?:  (.+)|\\n      (.+))$")
                .matcher(table);
        while (row.find()) {
            String label = row.group(4) != null ? row.group(4) : row.group(5);
            out.put(row.group(1) + " " + row.group(2) + " " + label, Double.parseDouble(row.group(3)));
        }
        return out;
    }

    /**
     * Asserts that the table the agent printed at exit (in {@code applicationErr}) has rows, and that they are the
     * first rows of the report's table (in {@code reportOut}): the same rows (kind, parks, label) in the same order,
     * each row's %real within a point (issue 40: one accounting, one denominator, the recording's span).
     */
    static void assertExitTableIsTheReportsFirstRows(String applicationErr, String reportOut) {
        int exitAt = applicationErr.indexOf(EXIT_TABLE);
        int reportAt = reportOut.indexOf(REPORT_TABLE);
        assertThat(exitAt).as(applicationErr).isNotNegative();
        assertThat(reportAt).as(reportOut).isNotNegative();
        Map<String, Double> exit = tableRows(applicationErr.substring(exitAt));
        Map<String, Double> report = tableRows(reportOut.substring(reportAt));
        String both = "exit table:\n" + applicationErr.substring(exitAt) + "\nreport:\n" + reportOut;
        assertThat(exit).as(both).isNotEmpty();
        List<String> exitRows = List.copyOf(exit.keySet());
        List<String> reportRows = List.copyOf(report.keySet());
        assertThat(reportRows.subList(0, Math.min(reportRows.size(), exitRows.size()))).as(both).isEqualTo(exitRows);
        for (String row : exitRows) {
            assertThat(exit.get(row)).as("%%real of %s\n%s", row, both).isCloseTo(report.get(row), org.assertj.core.data.Offset.offset(1.0));
        }
        assertExitFindingsAreTheReports(applicationErr, reportOut);
    }

    /** The first line of the agent's findings at exit, above its table. */
    static final String EXIT_FINDINGS = "lockscope: top findings at JVM exit";

    /** A finding's lock (its row's label, without the place most waited in) and its share of wall time. */
    private static final Pattern FINDING_HEAD = Pattern.compile("^(.+?)(?: in \\S+)? blocked .*? for (\\d+)% of wall time");

    /**
     * Asserts that the findings the agent printed above its exit table are the report's findings of lock rows: the
     * same locks in the same order, each share of wall time within a point (issue 40: one first screen). The report's
     * go on to say who held each lock, from owner blame, which the agent does not compute.
     */
    static void assertExitFindingsAreTheReports(String applicationErr, String reportOut) {
        int at = applicationErr.indexOf(EXIT_FINDINGS);
        assertThat(at).as(applicationErr).isNotNegative();
        String exitText = applicationErr.substring(at + EXIT_FINDINGS.length() + 1);
        Map<String, Double> exit = findingHeads(List.of(exitText.substring(0, exitText.indexOf("\n  (")).split("\n  - ")));
        Map<String, Double> report = findingHeads(findings(reportOut).stream().filter(f -> f.contains("Contention by rule")).toList());
        String both = "exit:\n" + applicationErr.substring(at) + "\nreport:\n" + reportOut;
        List<String> exitLocks = List.copyOf(exit.keySet());
        List<String> reportLocks = List.copyOf(report.keySet());
        // both show 10 at most; the report's 10 may include other rules' findings (a pinned virtual thread)
        assertThat(exitLocks.size()).as(both).isGreaterThanOrEqualTo(reportLocks.size());
        assertThat(exitLocks.subList(0, reportLocks.size())).as(both).isEqualTo(reportLocks);
        for (String lock : report.keySet()) {
            assertThat(exit.get(lock)).as("share of %s\n%s", lock, both).isCloseTo(report.get(lock), org.assertj.core.data.Offset.offset(1.0));
        }
    }

    private static Map<String, Double> findingHeads(List<String> items) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String item : items) {
            Matcher m = FINDING_HEAD.matcher(item.replaceFirst("^  - ", "").replaceAll("\\s+", " ").trim());
            if (m.find()) {
                out.put(m.group(1), Double.parseDouble(m.group(2)));
            }
        }
        return out;
    }
}
