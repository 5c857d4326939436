package dev.lockscope.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14: with a recording threshold that leaves most parks out of the events, {@code lockscope
 * report} of the recording prints, for every park blocker, the same times parked, parked now, peak,
 * thread-time and real-time as the agent's table at exit (both come from the agent's exact live
 * tallies: the report from the {@code lockscope.LockSummary} events written when the recording stopped).
 */
class ExitTableMatchesReportTest {
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

    @Test
    void reportOfAThresholdRecordingPrintsTheAgentsExitNumbers() throws Exception {
        Path jfr = dir.resolve("global.jfr");
        Proc run = Proc.run(dir, 120, Proc.demoCommand("file=" + jfr + ",threshold=1ms,report=full", "scale-global-lock",
                "--threads", "4", "--seconds", "2"));
        assertThat(run.exitCode()).as("stderr:\n%s", run.err()).isZero();
        String err = run.err();
        int at = err.indexOf("lockscope: lock contention at JVM exit");
        assertThat(at).as(err).isNotNegative();
        Map<String, String> exit = parkBlocks(err.substring(at));

        Proc report = Proc.lockscope(dir, 120, "report", jfr.toString());
        assertThat(report.exitCode()).as("report stderr: %s", report.err()).isZero();
        Map<String, String> recorded = parkBlocks(report.out());

        assertThat(exit).as("exit table:\n%s", err.substring(at)).isNotEmpty();
        assertThat(recorded).as("report:\n%s", report.out()).isEqualTo(exit);
        // most of the global lock's parks are shorter than 1 ms: the counts come from the summaries
        assertThat(exit.values()).anyMatch(block -> {
            Matcher parks = Pattern.compile("times parked (\\d+)").matcher(block);
            return parks.find() && Long.parseLong(parks.group(1)) > 100;
        });
    }
}
