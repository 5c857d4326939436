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
 * (HotSpot wins some of those by spinning); blocked counts those in which the JVM's count of the
 * thread's blocked monitor entries rose, which is where it posts {@code jdk.JavaMonitorEnter}
 * (threshold 0 under {@code record}), so both should be JFR's count. An acquisition that another thread
 * beat after the probe's check is found after the entry (the lock's gets grew) and compared with the
 * thread's last read count; one arriving between a holder's probe and its monitorexit (a holder
 * preempted there) is still missed.
 */
class DeepBlockedCountIT {
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
        System.out.println("deep-blocked-count " + counts);
        assertThat(gets).as(counts).isGreaterThan(1_000);
        assertThat(jfrBlocked).as("enough blocked entries to compare: " + counts).isGreaterThanOrEqualTo(10);
        assertThat(blocked).as(counts).isLessThanOrEqualTo(slow);
        // measured at load ~40 on 2 cores (JDK 17 and 25, seven runs): blocked equal to JFR's count in six, 2.5%
        // below in one, slow within 1.6% (issue 18 asks 2%); an earlier build missed up to 2.5% at load ~20 (holders preempted in
        // the release window): the bounds leave room for a machine loaded far more. A block on a monitor outside the selected code
        // could make blocked exceed JFR's count by one; log4j2's logging threads block on none.
        assertThat((double) blocked).as(counts).isBetween(0.85 * jfrBlocked, 1.02 * jfrBlocked + 2);
        assertThat((double) slow).as(counts).isGreaterThanOrEqualTo(0.85 * jfrBlocked);
    }
}
