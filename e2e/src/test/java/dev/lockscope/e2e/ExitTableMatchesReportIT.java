package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14: with a recording threshold that leaves most parks out of the events, {@code lockscope
 * report} of the recording prints, for every park blocker, the same times parked, parked now, peak,
 * thread-time and real-time as the agent's table at exit (both come from the agent's exact live
 * tallies: the report from the {@code lockscope.LockSummary} events written when the recording stopped).
 * Issue 13: a lock site of many objects has one real-time in both, the union of its objects' waits, and
 * the same times parked, the objects the GC collected while the program ran included.
 */
@InJdk25Pass
class ExitTableMatchesReportIT {
    @TempDir
    Path dir;

    /** "[n] park Class at Site.method:line (N instances)" and its counting lines, per park lock site of a rendered table. */
    private static final Pattern PARK_BLOCK = Pattern.compile(
            "\\[\\d+] park (.+)\\n(?:.*\\n)*?(    times parked .*\\n    thread-time .*\\n)");

    private static Map<String, String> parkBlocks(String table) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = PARK_BLOCK.matcher(table);
        while (m.find()) {
            out.put(m.group(1), m.group(2));
        }
        return out;
    }

    /** Runs a demo under the agent and returns the table it printed at exit. */
    private String exitTable(String agentArgs, String... demo) throws Exception {
        return exitTable(Proc.demoCommand(agentArgs, demo));
    }

    private String exitTable(List<String> command) throws Exception {
        Proc run = Proc.run(dir, 120, command);
        assertThat(run.exitCode()).as("stderr:\n%s", run.err()).isZero();
        String err = run.err();
        int at = err.indexOf("lockscope: lock contention at JVM exit");
        assertThat(at).as(err).isNotNegative();
        // from the findings above it (issue 40: the first screen)
        int findings = err.indexOf(ReportText.EXIT_FINDINGS);
        return err.substring(findings >= 0 && findings < at ? findings : at);
    }

    @Test
    void reportOfAThresholdRecordingPrintsTheAgentsExitNumbers() throws Exception {
        Path jfr = dir.resolve("global.jfr");
        String exitTable = exitTable("file=" + jfr + ",threshold=1ms,report=full", "scale-global-lock",
                "--threads", "4", "--seconds", "2");
        Map<String, String> exit = parkBlocks(exitTable);

        Proc report = Proc.lockscope(dir, 120, "report", jfr.toString());
        assertThat(report.exitCode()).as("report stderr: %s", report.err()).isZero();
        Map<String, String> recorded = parkBlocks(report.out());

        assertThat(exit).as("exit table:\n%s", exitTable).isNotEmpty();
        assertThat(recorded).as("report:\n%s", report.out()).isEqualTo(exit);
        // most of the global lock's parks are shorter than 1 ms: the counts come from the summaries
        assertThat(exit.values()).anyMatch(block -> {
            Matcher parks = Pattern.compile("times parked (\\d+)").matcher(block);
            return parks.find() && Long.parseLong(parks.group(1)) > 100;
        });
    }

    /** "[n] monitor Class at Site" and its counting lines, per monitor lock site of a rendered table. */
    private static final Pattern MONITOR_BLOCK = Pattern.compile(
            "\\[\\d+] monitor (.+)\\n(?:.*\\n)*?(    times blocked .*\\n    thread-time .*\\n)");

    /**
     * The exit table's synchronized rows are read from the written recording, as {@code lockscope report}
     * reads them (no in-process stream runs without live metrics): the same counts and times, to the
     * hundredth of a millisecond printed.
     */
    @Test
    void theExitTablesMonitorRowsAreTheReports() throws Exception {
        Path jfr = dir.resolve("sync.jfr");
        String exitTable = exitTable("file=" + jfr + ",report=full", "large-cs-sync", "--threads", "4", "--seconds", "2");
        Proc report = Proc.lockscope(dir, 120, "report", jfr.toString());
        assertThat(report.exitCode()).as("report stderr: %s", report.err()).isZero();
        Map<String, String> exit = new LinkedHashMap<>();
        Matcher m = MONITOR_BLOCK.matcher(exitTable);
        while (m.find()) {
            exit.put(m.group(1), m.group(2));
        }
        Map<String, String> recorded = new LinkedHashMap<>();
        m = MONITOR_BLOCK.matcher(report.out());
        while (m.find()) {
            recorded.put(m.group(1), m.group(2));
        }
        // the report details its first rows only
        assertThat(exit).as("exit table:\n%s", exitTable).hasSizeGreaterThanOrEqualTo(3);
        assertThat(recorded).as("report:\n%s", report.out()).isNotEmpty();
        assertThat(exit).as("exit table:\n%s\nreport:\n%s", exitTable, report.out()).containsAllEntriesOf(recorded);
    }

    /**
     * The lock-table demo under a threshold: most of its entry mutexes are collected and dropped while it
     * runs and most of their parks are shorter than the threshold, so the report has them only from the
     * agent's summary of the site's collected blockers; it prints the site's exit numbers all the same.
     */
    @Test
    void aThresholdRecordingOfASiteOfCollectedObjectsPrintsTheAgentsExitNumbers() throws Exception {
        Path jfr = dir.resolve("table-threshold.jfr");
        String exitTable = exitTable("file=" + jfr + ",threshold=1ms,report=full", "lock-table", "--threads", "16",
                "--seconds", "2");
        Proc report = Proc.lockscope(dir, 120, "report", jfr.toString());
        assertThat(report.exitCode()).as("report stderr: %s", report.err()).isZero();
        for (String site : List.of("LockTableEntries.lockEntry:", "LockTableEntries.audit:")) {
            assertThat(siteCounts(report.out(), site)).as("%s\nexit table:\n%s\nreport:\n%s", site, exitTable, report.out())
                    .isNotEmpty().isEqualTo(siteCounts(exitTable, site));
        }
        assertThat(siteNumber(exitTable, "LockTableEntries.lockEntry:", "times parked (\\d+)")).as(exitTable).isGreaterThan(500);
    }

    /** The times parked and thread-time lines of the park site with {@code frame} in its first stack, or "". */
    private static String siteCounts(String table, String frame) {
        Matcher block = Pattern.compile("\\[\\d+] park .*\\n((?:    .*\\n)+)").matcher(table);
        while (block.find()) {
            Matcher counts = Pattern.compile("    times parked .*\\n    thread-time .*\\n").matcher(block.group(1));
            if (block.group(1).contains(frame) && counts.find()) {
                return counts.group();
            }
        }
        return "";
    }

    /** The real-time in ms of the park site whose detail block has {@code frame} in its first stack, or -1. */
    private static double siteRealTimeMs(String table, String frame) {
        return siteNumber(table, frame, "real-time ([\\d.]+) ms");
    }

    /** The number {@code pattern} captures in the detail block of the park site with {@code frame} in its first stack, or -1. */
    private static double siteNumber(String table, String frame, String pattern) {
        Matcher block = Pattern.compile("\\[\\d+] park .*\\n((?:    .*\\n)+)").matcher(table);
        while (block.find()) {
            Matcher number = Pattern.compile(pattern).matcher(block.group(1));
            if (block.group(1).contains(frame) && number.find()) {
                return Double.parseDouble(number.group(1));
            }
        }
        return -1;
    }

    /**
     * The {@code lock-table} demo waits for several of its short-lived entry mutexes at once (one site,
     * thousands of objects): summed, their real-times pass the wall time (the exit table printed 203%);
     * the exit table's real-time of the site is the union, as the report's, and never more than the run.
     * In a small heap, so that the GC collects the entries while the demo runs and the agent's table sums
     * them in a row of collected blockers (CI's small machine did; that row's summed real-time once made
     * the site's 7.5 s in a 3 s run).
     */
    @Test
    void aSiteOfManyObjectsHasOneRealTimeAtExitAndInTheReport() throws Exception {
        Path jfr = dir.resolve("table.jfr");
        List<String> command = Proc.demoCommand("file=" + jfr + ",report=full", "lock-table", "--threads", "16", "--seconds", "3");
        command.addAll(1, List.of("-Xmx16m", "-Xlog:gc:file=" + dir.resolve("gc.log")));
        String exitTable = exitTable(command);
        assertThat(java.nio.file.Files.readString(dir.resolve("gc.log"))).as("the GC ran while the demo did").contains("Pause Young");
        String site = "LockTableEntries.lockEntry:";
        double exitRealMs = siteRealTimeMs(exitTable, site);
        Matcher profiled = Pattern.compile("profiled ([\\d.]+) s").matcher(exitTable);
        assertThat(profiled.find()).as(exitTable).isTrue();

        Proc report = Proc.lockscope(dir, 120, "report", jfr.toString());
        assertThat(report.exitCode()).as("report stderr: %s", report.err()).isZero();
        double reportRealMs = siteRealTimeMs(report.out(), site);
        assertThat(reportRealMs).as("report:\n%s", report.out()).isPositive();

        // the workload can tell the union from the sum: its objects' own real-times add up to far more
        Proc byObject = Proc.lockscope(dir, 120, "report", jfr.toString(), "--instances", "--format", "json");
        assertThat(byObject.exitCode()).as(byObject.err()).isZero();
        double objectsSumMs = 0;
        for (JsonNode lock : new ObjectMapper().readTree(byObject.out()).get("locks")) {
            if (lock.get("kind").asText().equals("park") && lock.get("site").asText().contains(site)) {
                objectsSumMs += lock.get("realTimeNanos").longValue() / 1e6;
            }
        }
        assertThat(objectsSumMs).as("the objects' summed real-times against the site's union").isGreaterThan(1.4 * reportRealMs);

        // the GC collects most of the site's objects while it runs: the table keeps their parks (the report
        // has them from their events, every park at the default threshold 0)
        assertThat(siteNumber(exitTable, site, "times parked (\\d+)")).as("exit table:\n%s\nreport:\n%s", exitTable, report.out())
                .isEqualTo(siteNumber(report.out(), site, "times parked (\\d+)"));
        assertThat(exitRealMs).as("exit table:\n%s", exitTable)
                .isLessThanOrEqualTo(Double.parseDouble(profiled.group(1)) * 1000)
                .isCloseTo(reportRealMs, org.assertj.core.data.Percentage.withPercentage(15));
    }

    /**
     * Issue 40: the exit table's rows are the report's first rows, in the same order, with the same parks and %real
     * within a point, and the report's first screen is its findings, before its table. Object.wait rows too: the
     * demo's notify-woken waits ({@code blame-wait-sync}) are a {@code wait} row at exit as in the report.
     */
    @ParameterizedTest
    @ValueSource(strings = {"scale-global-lock", "blame-wait-sync"})
    void theExitTablesRowsAreTheReportsFirstRows(String demo) throws Exception {
        Path jfr = dir.resolve(demo + ".jfr");
        String exitTable = exitTable("file=" + jfr + ",report=full", demo, "--threads", "4", "--seconds", "2");
        Proc report = Proc.lockscope(dir, 120, "report", jfr.toString());
        assertThat(report.exitCode()).as("report stderr: %s", report.err()).isZero();
        String text = report.out();
        assertThat(text.indexOf("top findings:")).as(text).isNotNegative().isLessThan(text.indexOf("lockscope: lock contention in"));
        ReportText.assertExitTableIsTheReportsFirstRows(exitTable, text);
        if (demo.equals("blame-wait-sync")) {
            assertThat(exitTable).as("the wait/notify lock's row at exit").containsPattern("(?m)^  1   wait ");
        }
    }
}
