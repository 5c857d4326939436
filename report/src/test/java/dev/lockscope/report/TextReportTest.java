package dev.lockscope.report;

import dev.lockscope.core.LockTable;
import dev.lockscope.report.export.Recordings;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.rules.RuleResult;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TextReportTest {
    @Test
    void fitsOneHundredColumns() {
        String text = TextReport.render(Fixtures.contention());
        assertThat(text.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(LockTable.WIDTH));
    }

    @Test
    void isCoreTableWithRecordingAndThresholdNotes() {
        String text = TextReport.render(Fixtures.contention());
        assertThat(text).startsWith("lockscope: lock contention in app.jfr\n");
        assertThat(text).contains("recording /tmp/app.jfr: 2.00 s from 2026-01-01T00:00:00Z",
                "3 more locks with fewer than 1 park left out (print threshold)");
        // the lock with the most wait comes first, as in the agent's table
        assertThat(text.indexOf("[1] park ReentrantLock@1b2c3d\n    lock java.util.concurrent.locks.ReentrantLock$NonfairSync @1b2c3d"))
                .isPositive().isLessThan(text.indexOf("(1 lock under 3.00% of all waiting or 5.00% of wall time: no details here"));
        // a row of the table all the same
        assertThat(text).containsPattern("(?m)^  2   monitor .*Cache@7f3a0001c0");
        assertThat(text).contains("thread-time 140.00 ms, real-time 100.00 ms", "avg park time 46.67 ms, avg hold time 33.33 ms",
                "util %real-time 50.00, %thread-time 70.00", "first parked by \"worker-1\"");
    }

    @Test
    void findingsWrapToOneHundredColumnsAndTheLastLinePointsToTheHtmlFile() {
        String finding = "`ReentrantLock at Inventory.reserve:42` blocked 14 threads for 62% of wall time; it was held "
                + "in `com.example.inventory.Inventory.audit` 91% of that time, and this sentence goes on for a while.";
        Report small = Recordings.report(Recordings.small());
        Report report = new Report(small.contention(), small.blame(), null, null,
                List.of(RuleResult.of("lock-bottleneck", 62, finding, "lock@1")), small.waits());
        String text = TextReport.render(report, Path.of("/tmp/app.html"));
        assertThat(text.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(LockTable.WIDTH));
        assertThat(text).contains("top findings:\n  - ReentrantLock at Inventory.reserve:42 blocked 14 threads")
                .doesNotContain("`");
        assertThat(text.lines().reduce((a, b) -> b)).hasValue(
                "lockscope: interactive report (open in a browser): /tmp/app.html");
    }

    @Test
    void rulesThatCouldNotBeEvaluatedNameTheMissingEvents() {
        Report small = Recordings.report(Recordings.small());
        Report report = new Report(small.contention(), small.blame(), null, null,
                List.of(RuleResult.of("lock-bottleneck", 50, "A lock.", "lock@1"),
                        RuleResult.notEvaluated("monitor-contention", List.of("jdk.JavaMonitorEnter"))), small.waits());
        assertThat(TextReport.findings(report)).contains(
                "  - not evaluated: monitor-contention (no jdk.JavaMonitorEnter events in the recording)");
    }

    @Test
    void topCutsTheTableAndSaysHowManyLocksItLeftOut() {
        String text = TextReport.render(Fixtures.contention(), 1);
        assertThat(text).contains("1 more lock left out (--top 1; JSON and HTML have all)")
                .contains("[1]").doesNotContainPattern("(?m)^  2   ");
        assertThat(TextReport.render(Fixtures.contention(), 10)).containsPattern("(?m)^  2   ").doesNotContain("--top");
    }

    /** The first screen is the findings, then the table: {@code report} opens as the agent's exit table does. */
    @Test
    void findingsComeBeforeTheTable() {
        Report small = Recordings.report(Recordings.small());
        Report report = new Report(small.contention(), small.blame(), null, null,
                List.of(RuleResult.of("lock-bottleneck", 62, "A lock.", "lock@1")), small.waits());
        String text = TextReport.render(report, null);
        assertThat(text.indexOf("top findings:\n  - A lock.")).isNotNegative()
                .isLessThan(text.indexOf("lockscope: lock contention in"));
    }
}
