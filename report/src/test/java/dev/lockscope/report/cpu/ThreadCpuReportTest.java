package dev.lockscope.report.cpu;

import dev.lockscope.analysis.profile.ThreadCpuTimes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadCpuReportTest {
    private static final long MS = 1_000_000;

    private static ThreadCpuTimes fig51(int excluded) {
        return new ThreadCpuTimes(null, 0, 2_000 * MS, 2, 3, 10 * MS, 10 * MS, excluded, List.of(
                new ThreadCpuTimes.Row(101, "worker-1", 10 * MS, 5 * MS, 5 * MS),
                new ThreadCpuTimes.Row(102, "worker-2", 9 * MS, 4_500_000, 4_500_000),
                new ThreadCpuTimes.Row(103, "worker-3", 1 * MS, 500_000, 500_000),
                new ThreadCpuTimes.Row(104, "idle", 0, 0, 0)));
    }

    @Test
    void headerGivesTheMachinesStealPerSecondOrWhyThereIsNone() {
        assertThat(ThreadCpuReport.headerLine(fig51(0)))
                .isEqualTo("steal time: 5.00 ms/s of 2 CPUs (50.00% of their CPU time), over 2.0 s sampled");
        ThreadCpuTimes noProc = new ThreadCpuTimes("no /proc/stat on this system (not Linux?)", 0, 0, 0, 0, 0, 0, -1, List.of());
        assertThat(ThreadCpuReport.headerLine(noProc)).isEqualTo("steal time: not sampled (no /proc/stat on this system (not Linux?))");
        assertThat(ThreadCpuReport.text(noProc, 10)).isEmpty();
        assertThat(ThreadCpuReport.html(noProc)).contains("not sampled").doesNotContain("<table");
    }

    @Test
    void threadTableInEveryFormat() {
        String text = ThreadCpuReport.text(fig51(0), 10);
        assertThat(text).contains("  worker-1                                      101        10.00       5.00          5.00\n")
                .contains("  all 4 threads                                            20.00      10.00         10.00\n")
                .contains("corrected = cpu - steal").doesNotContain("idle"); // a thread that used no CPU has no row
        assertThat(text.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
        assertThat(ThreadCpuReport.text(fig51(1), 10)).contains("already leaves steal out");
        assertThat(ThreadCpuReport.text(fig51(0), 1)).contains("(2 more threads that used CPU; JSON and HTML have all)");
        var json = ThreadCpuReport.json(fig51(0));
        assertThat(json.get("stealNanosPerSecond").asLong()).isEqualTo(5 * MS);
        assertThat(json.get("threads")).hasSize(4);
        assertThat(json.get("threads").get(1).get("stealNanos").asLong()).isEqualTo(4_500_000);
        assertThat(ThreadCpuReport.html(fig51(0))).contains("<td>worker-2</td><td>102</td><td>9.00</td><td>4.50</td><td>4.50</td>");
    }
}
