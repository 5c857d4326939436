package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13's acceptance for a workload that only idles: {@code lockscope report} says there is no
 * contention and lists the idle pool and {@code main}'s termination wait, each with the rule that
 * classified it; JSON names the rule per lock.
 */
class IdleWorkloadIT {
    @Test
    void aPoolWithNoLoadReportsNoContentionAndItsIdlePools() throws Exception {
        Path jfr = Path.of("target", "idle-workload", "idle.jfr").toAbsolutePath();
        Path dir = jfr.getParent();
        Proc record = Proc.record(jfr, 180, List.of(), Proc.TEST_CLASSES, IdlePoolMain.class.getName());
        assertThat(record.exitCode()).as(record.err()).isZero();

        Proc text = Proc.lockscope(dir, 120, "report", jfr.toString());
        assertThat(text.exitCode()).as(text.err()).isZero();
        List<String> lines = text.out().lines().toList();
        String firstFinding = lines.get(lines.indexOf("top findings:") + 1);
        assertThat(firstFinding).as(text.out()).startsWith("  - No contention in this recording");
        assertThat(text.out()).containsPattern("\\n  pool-#-thread-# +[0-9.]+ s in [0-9]+ waits? +\\(rule pool-queue\\)")
                // main's 1 s awaitTermination; a class-initialisation wait inside it (JFR: Object.wait on the class's
                // init lock, same frames) may add a second, sub-millisecond wait to the line, as in one full run on JDK 17
                .containsPattern("\\n  main +1\\.[0-9] s in [12] waits? +\\(rule termination-wait\\)");

        Proc json = Proc.lockscope(dir, 120, "report", jfr.toString(), "--format", "json");
        List<String> verdicts = new ArrayList<>();
        new ObjectMapper().readTree(json.out()).get("locks")
                .forEach(l -> verdicts.add(l.get("waitClass").asText() + " " + l.get("waitRule").asText()));
        assertThat(verdicts).as(json.out()).contains("idle pool-queue", "idle termination-wait");
        // the only contention an idle pool may show: a thread that waited for another's class initialisation at
        // startup (JDK 25's virtual-thread unblocker waiting for main), a millisecond at most, no finding
        assertThat(verdicts).filteredOn(v -> v.startsWith("contention ")).allMatch(v -> v.equals("contention class-initialization"));
    }
}
