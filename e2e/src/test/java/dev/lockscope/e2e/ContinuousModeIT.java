package dev.lockscope.e2e;

import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code continuous}: an application that starts, stops, dumps and closes JFR recordings of its own
 * every round ({@link OwnJfrMain}) runs to its normal end under the agent; its own recordings are
 * written and readable; lockscope's recording still has every round (the long-lived lock's waits from
 * all six rounds); and the records of the blockers the GC collected are dropped at the chunk ends the
 * application's recordings cause, so the exit table holds about one round of short-lived locks, not
 * all six.
 */
class ContinuousModeIT {
    private static final int ROUNDS = 6;
    private static final Pattern PARK_ROW = Pattern.compile("(?m)^\\s+\\d+\\s+park\\s");

    @TempDir
    Path dir;

    @Test
    void survivesTheApplicationsOwnRecordingsAndForgetsCollectedBlockers() throws Exception {
        Path jfr = dir.resolve("continuous.jfr");
        Proc app = Proc.run(dir, 240, List.of(Proc.JAVA, "-javaagent:" + Proc.AGENT_JAR + "=file=" + jfr + ",continuous,cpuSamples=off",
                "-cp", Path.of("target", "test-classes").toAbsolutePath().toString(), OwnJfrMain.class.getName(),
                dir.resolve("own").toString(), Integer.toString(ROUNDS)));
        assertThat(app.exitCode()).as(app.err()).isZero();
        assertThat(app.out()).isEqualTo("rounds: " + ROUNDS + "\n");
        assertThat(app.err()).doesNotContain("Exception").doesNotContain("internal errors");
        for (int round = 0; round < ROUNDS; round++) {
            assertThat(RecordingFile.readAllEvents(dir.resolve("own-" + round + ".jfr")))
                    .as("the application's own recording " + round).anyMatch(e -> e.getEventType().getName().equals("jdk.ThreadSleep"));
        }

        long tableRows = PARK_ROW.matcher(app.err()).results().count();
        assertThat(tableRows).as("exit table:\n" + app.err()).isPositive().isLessThan(3L * 50);

        Proc report = Proc.lockscope(dir, 120, "report", jfr.toString(), "--format", "json");
        assertThat(report.exitCode()).as(report.err()).isZero();
        // the long-lived lock: 4 threads × 6 rounds, the most parked-on wait; its waits of every round are in the
        // recording (rows of other kinds rank with it: the JDK Cleaner's Object.wait is a `wait` row, idle)
        String json = report.out();
        com.fasterxml.jackson.databind.JsonNode firstPark = null;
        for (com.fasterxml.jackson.databind.JsonNode lock : new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).get("locks")) {
            if (lock.get("kind").asText().equals("park")) {
                firstPark = lock;
                break;
            }
        }
        assertThat(firstPark).as(json).isNotNull();
        assertThat(firstPark.get("timesParked").asLong()).as(firstPark.toString()).isGreaterThanOrEqualTo(2L * ROUNDS);
    }
}
