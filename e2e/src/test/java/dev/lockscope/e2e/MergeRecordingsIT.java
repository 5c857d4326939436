package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 22 item 3: {@code lockscope merge} of three recordings of one workload (the J9 park-contention report §5.3's
 * frequently-acquired locks, three JVMs with different random seeds, so their lock objects have
 * different identity hashes) gives the top lock site and its top owner method of each recording alone,
 * and totals equal to the sums. Also issue 13 item 4: each JVM's exit table is short by default.
 */
@InJdk17Pass
class MergeRecordingsIT {
    @TempDir
    Path dir;

    @Test
    void mergeOfThreeRunsHasEachRunsTopLockAndOwnerAndTheSumsOfTheirTotals() throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<String> recordings = new ArrayList<>();
        List<JsonNode> alone = new ArrayList<>();
        for (int seed = 1; seed <= 3; seed++) {
            Path jfr = dir.resolve("run" + seed + ".jfr");
            Proc run = Proc.run(dir, 120, Proc.demoCommand("file=" + jfr, "frequent-juc", "--threads", "8",
                    "--seconds", "2", "--seed", Integer.toString(seed)));
            assertThat(run.exitCode()).as("stderr:\n%s", run.err()).isZero();
            assertShortExitTable(run.err(), jfr);
            Proc report = Proc.lockscope(dir, 120, "report", jfr.toString(), "--format", "json");
            assertThat(report.exitCode()).as(report.err()).isZero();
            alone.add(json.readTree(report.out()));
            recordings.add(jfr.toString());
        }
        List<String> args = new ArrayList<>(List.of("merge"));
        args.addAll(recordings);
        args.addAll(List.of("--format", "json"));
        Proc merge = Proc.lockscope(dir, 180, args.toArray(String[]::new));
        assertThat(merge.exitCode()).as(merge.err()).isZero();
        JsonNode merged = json.readTree(merge.out());

        JsonNode top = merged.get("locks").get(0);
        assertThat(top.get("site").asText()).contains("FrequentlyAcquired.jucFrequent:");
        assertThat(top.get("instances").asInt()).isEqualTo(3);
        long topSum = 0;
        long blameSum = 0;
        for (int i = 0; i < 3; i++) {
            JsonNode one = alone.get(i);
            JsonNode oneTop = one.get("locks").get(0);
            assertThat(oneTop.get("site").asText()).as("run %d's top lock site", i + 1).isEqualTo(top.get("site").asText());
            assertThat(ownerMethodOfTopLock(one)).as("run %d's top owner method", i + 1).isEqualTo(ownerMethodOfTopLock(merged));
            assertThat(top.get("waitPerRecordingNanos").get(i).longValue()).isEqualTo(oneTop.get("totalWaitNanos").longValue());
            topSum += oneTop.get("totalWaitNanos").longValue();
            blameSum += one.get("tree").get("nanos").longValue();
        }
        assertThat(top.get("totalWaitNanos").longValue()).isEqualTo(topSum);
        assertThat(merged.get("tree").get("nanos").longValue()).isEqualTo(blameSum);
        assertThat(ownerMethodOfTopLock(merged)).contains("FrequentlyAcquired.jucFrequent");

        Proc text = Proc.lockscope(dir, 180, args.subList(0, 4).toArray(String[]::new));
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains("lock contention in 3 recordings merged", "wait per recording");
    }

    /** The owner method with the most blame under the top lock of the default tree (lock > owner method). */
    private static String ownerMethodOfTopLock(JsonNode report) {
        JsonNode lock = report.get("tree").get("children").get(0);
        return lock.get("children").get(0).get("key").asText();
    }

    /** At most the title, notes, header and 10 rows, with the recording's path, and no per-lock details. */
    private static void assertShortExitTable(String err, Path jfr) {
        int at = err.indexOf("lockscope: lock contention at JVM exit");
        assertThat(at).as(err).isNotNegative();
        String table = err.substring(at);
        assertThat(table).contains(jfr.toString()).doesNotContain("first parked by", "times parked");
        assertThat(table.lines().count()).as(table).isLessThanOrEqualTo(20);
        assertThat(table).contains("FrequentlyAcquired.jucFrequent:");
    }
}
