package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 3 acceptance: the seed 000 §5.2/§5.3 patterns run under the agent; the report ranks the
 * bottleneck first, estimates its hold time within 10% of the critical section, and shows it busy
 * (real-time utilisation) more than 90% of the run. The other locks' hold times are within 10% too,
 * except the rarely taken lock of §5.3 ("~" below): seed 000's estimator, real-time / unparks, cannot
 * see the part of a hold before its first waiter parks, so on a lightly contended lock it reads low —
 * the seed itself reports 25.72 ms for that 32 ms lock (§5.3.1) — and with the 3–16 contended entries
 * such a lock gets in 5 s it swings both ways: readings of 6–37 ms for the 32 ms `synchronized` lock
 * were seen on an idle machine, with the same numbers from the old in-memory analysis and the streaming
 * one on the same recordings (docs/PERFORMANCE.md's accuracy section measures that error against
 * ground truth). There the test asks only for a hold estimate above zero and at most 150%.
 */
class DemoPatternsTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // pattern,      bottleneck method, its ms, other methods and their ms
            "large-cs-juc,   juc3,          64, juc1:4;juc2:16",
            "large-cs-sync,  sync3,         64, sync1:4;sync2:16",
            "frequent-juc,   jucFrequent,   32, ~jucRare:32",
            "frequent-sync,  syncFrequent,  32, ~syncRare:32"})
    void bottleneckRanksFirstWithItsHoldTime(String pattern, String bottleneck, long bottleneckMs, String others) throws Exception {
        Path jfr = dir.resolve(pattern + ".jfr");
        Proc run = Proc.run(dir, 120, Proc.demoCommand("file=" + jfr, pattern, "--threads", "16", "--seconds", "5"));
        assertThat(run.exitCode()).as("demo exit code; stderr:\n%s", run.err()).isZero();
        assertThat(run.err()).contains("lockscope: lock contention at JVM exit").doesNotContain("Exception");

        Proc report = Proc.lockscope(dir, 120, "report", jfr.toString(), "--format", "json");
        assertThat(report.exitCode()).as("report stderr: %s", report.err()).isZero();
        JsonNode locks = new ObjectMapper().readTree(report.out()).get("locks");
        List<JsonNode> demoLocks = new ArrayList<>();
        for (JsonNode lock : locks) {
            if (lock.get("firstFrames").toString().contains("dev.lockscope.demo.")) {
                demoLocks.add(lock);
            }
        }
        if (demoLocks.isEmpty()) {
            // seen twice in full-suite runs (frequent-sync, JDK 17), never alone: both demo monitors
            // without a stack. Keep the recording and say what the JDK's own reader sees in it.
            Path kept = Path.of("target", "failed-recordings", pattern + "-" + System.currentTimeMillis() + ".jfr");
            Files.createDirectories(kept.getParent());
            Files.copy(jfr, kept);
            throw new AssertionError("no lock taken by the demo; the JDK's reader sees " + monitorStacks(jfr)
                    + "; recording kept as " + kept.toAbsolutePath() + "; locks: " + locks);
        }

        JsonNode top = demoLocks.get(0);
        assertThat(locks.get(0)).as("the bottleneck ranks first overall").isEqualTo(top);
        assertThat(top.get("firstFrames").toString()).contains("." + bottleneck + ":");
        assertThat(top.get("kind").asText()).isEqualTo(pattern.endsWith("sync") ? "monitor" : "park");
        assertHold(top, bottleneckMs);
        assertThat(top.get("realTimeUtilPct").asDouble()).as("bottleneck %%real-time").isGreaterThan(90.0);

        for (String other : others.split(";")) {
            boolean light = other.startsWith("~");
            String method = other.replace("~", "").split(":")[0];
            long ms = Long.parseLong(other.split(":")[1]);
            JsonNode lock = demoLocks.stream().filter(l -> l.get("firstFrames").toString().contains("." + method + ":"))
                    .findFirst().orElseThrow(() -> new AssertionError("no lock taken in " + method + ": " + locks));
            if (light) {
                double holdMs = lock.get("avgHoldNanos").asDouble() / 1e6;
                assertThat(holdMs).as("avg hold of the lightly contended lock in %s", method).isPositive().isLessThanOrEqualTo(1.5 * ms);
            } else {
                assertHold(lock, ms);
            }
        }
        assertThat(Files.size(jfr)).isPositive();
    }

    /** How many JavaMonitorEnter events the JDK's reader finds in the recording, and how many of them have a stack. */
    private static String monitorStacks(Path jfr) {
        long events = 0;
        long withStack = 0;
        long demoTop = 0;
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (e.getEventType().getName().equals("jdk.JavaMonitorEnter")) {
                    events++;
                    if (e.getStackTrace() != null) {
                        withStack++;
                        if (!e.getStackTrace().getFrames().isEmpty()
                                && e.getStackTrace().getFrames().get(0).getMethod().getType().getName().startsWith("dev.lockscope.demo.")) {
                            demoTop++;
                        }
                    }
                }
            }
        } catch (Exception e) {
            return "an unreadable recording (" + e + ")";
        }
        return events + " JavaMonitorEnter events, " + withStack + " with a stack, " + demoTop + " of them in the demo's code";
    }

    /**
     * Within 10% plus 0.5 ms: the seed's estimate counts each hand-off's wake-up latency (release to the
     * woken waiter running, while others are still parked) as holding. On a busy 2-core machine that is
     * up to ~0.8 ms per hand-off: 20% of the 4 ms lock's hold over its ~15 hand-offs, 1% of the 64 ms lock's.
     */
    private static void assertHold(JsonNode lock, long ms) {
        double holdMs = lock.get("avgHoldNanos").asDouble() / 1e6;
        assertThat(holdMs).as("avg hold of %s", lock.get("firstFrames")).isCloseTo(ms, within(ms * 0.10 + 0.5));
    }
}
