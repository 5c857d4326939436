package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 18: deep mode's counts on a real library under 16 threads, cross-checked with JFR's own monitor
 * events of the same run. log4j2 2.24 with a synchronous FileAppender writes every event under the
 * FileManager's monitor. SLOW counts the acquisitions begun while another thread held the monitor
 * (HotSpot wins most of those by spinning); blocked counts those in which the JVM's count of the
 * thread's blocked monitor entries rose, which is where it posts {@code jdk.JavaMonitorEnter}
 * (threshold 0 under {@code record}). Blocked can only undercount JFR (an acquisition that arrived in
 * the few nanoseconds between another thread's acquisition and its probe is not slow, so its count is
 * not read), never exceed it.
 */
class DeepBlockedCountTest {
    private static final String FILE_MANAGER = "org.apache.logging.log4j.core.appender.FileManager";

    @TempDir
    Path dir;

    @Test
    void blockedAcquisitionsOfTheFileManagerMatchJfrsMonitorEvents() throws Exception {
        Path jfr = dir.resolve("log4j2-deep.jfr");
        Proc run = Proc.lockscope(dir, 240, "record", "-o", jfr.toString(), "--deep", "org.apache.logging.**", "--",
                Proc.JAVA, "-cp", Proc.BENCH_JAR.toString(), "dev.lockscope.bench.LibraryWorkloads", "log4j2", "16", "1", "4");
        assertThat(run.exitCode()).as("stderr:\n%s", run.err()).isZero();
        Proc json = Proc.lockscope(dir, 120, "report", jfr.toString(), "--format", "json");
        assertThat(json.exitCode()).as("stderr:\n%s", json.err()).isZero();
        JsonNode report = new ObjectMapper().readTree(json.out());
        long jfrBlocked = 0;
        for (JsonNode l : report.get("locks")) {
            if (l.get("kind").asText().equals("monitor") && l.get("className").asText().equals(FILE_MANAGER)) {
                jfrBlocked += l.get("timesParked").asLong();
            }
        }
        long gets = 0, slow = 0, blocked = 0;
        for (JsonNode l : report.get("deep").get("locks")) {
            if (l.get("lockClass").asText().equals(FILE_MANAGER)) {
                gets += l.get("gets").asLong();
                slow += l.get("slow").asLong();
                blocked += l.get("blocked").asLong();
            }
        }
        String counts = String.format("gets %d, slow %d, blocked %d, JFR jdk.JavaMonitorEnter %d", gets, slow, blocked, jfrBlocked);
        assertThat(gets).as(counts).isGreaterThan(1_000);
        assertThat(jfrBlocked).as("enough blocked entries to compare: " + counts).isGreaterThanOrEqualTo(10);
        assertThat(blocked).as(counts).isLessThanOrEqualTo(slow);
        assertThat(blocked).as(counts).isLessThanOrEqualTo(jfrBlocked);
        // measured 0.82-0.94 of JFR's count at load 13-50, but 0.49 at load ~10, lower the faster the workload
        // runs (the missed blocks arrive in the probes' windows): no lower bound holds on an idle machine yet,
        // only that the count sees blocking at all (issue 18's 2% is not met; README's deep-mode section)
        assertThat(blocked).as(counts).isPositive();
    }
}
