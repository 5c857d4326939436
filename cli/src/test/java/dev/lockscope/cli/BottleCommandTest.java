package dev.lockscope.cli;

import dev.lockscope.sched.SchedFile;
import dev.lockscope.sched.SchedSource;
import dev.lockscope.sched.SchedTrace;
import dev.lockscope.sched.ThreadState;
import dev.lockscope.sched.Transition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BottleCommandTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = LockscopeCli.execute(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    Path recordingWithSched() {
        Path jfr = dir.resolve("run.jfr");
        SchedFile.write(new SchedTrace(SchedSource.PERF, null, 1, 2, 0, 4_000_000,
                Map.of(7, "worker-1", 8, "worker-2", 9, "java"),
                List.of(new Transition(0, 9, ThreadState.RUNNING), new Transition(1_000_000, 9, ThreadState.BLOCKED),
                        new Transition(1_000_000, 7, ThreadState.RUNNING),
                        new Transition(1_000_000, 8, ThreadState.RUNNING),
                        new Transition(4_000_000, 7, ThreadState.BLOCKED),
                        new Transition(4_000_000, 8, ThreadState.BLOCKED)), List.of()),
                SchedFile.besideRecording(jfr));
        return jfr;
    }

    @Test
    void textFromTheSchedNextToARecording() {
        Path jfr = recordingWithSched();
        Run r = run("bottle", dir.resolve("run.sched").toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("worker-1").contains("2.000").contains("1.50"); // S = 3 ms / 2
        assertThat(jfr.getFileName().toString()).isEqualTo("run.jfr");
    }

    @Test
    void svgAndJsonWithSlicesAndGroups() throws Exception {
        recordingWithSched();
        Path svg = dir.resolve("b.svg");
        Run r = run("bottle", dir.resolve("run.sched").toString(), "--format", "svg", "--slice", "2ms", "-o",
                svg.toString(), "--group", "crew=^worker", "--by-group");
        assertThat(r.code()).isZero();
        assertThat(Files.readString(svg)).startsWith("<?xml").contains("crew");
        Run j = run("bottle", dir.resolve("run.sched").toString(), "--format", "json", "--slice", "2ms");
        assertThat(j.out()).contains("\"slices\"").contains("\"osTid\" : 7");
    }

    /** A cut .sched and one with a flipped digit: one line and exit 2, not another graph. */
    @Test
    void aDamagedSchedIsOneLineAndExit2() throws Exception {
        recordingWithSched();
        Path sched = dir.resolve("run.sched");
        byte[] good = Files.readAllBytes(sched);
        String text = new String(good, StandardCharsets.UTF_8);
        byte[] flipped = good.clone();
        flipped[text.indexOf("\t4000000\t7\t") + 1] = '5';
        for (byte[] damaged : List.of(java.util.Arrays.copyOf(good, good.length - 20), flipped)) {
            Files.write(sched, damaged);
            Run r = run("bottle", sched.toString());
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.out()).isEmpty();
            assertThat(r.err().strip()).startsWith("lockscope: cannot read " + sched).containsAnyOf("damaged", "is cut").doesNotContain("\n");
        }
    }

    @Test
    void errorsAreOneLine() {
        for (String[] args : new String[][] {
            {"bottle", dir.resolve("missing.jfr").toString()},
            {"bottle", dir.resolve("missing.sched").toString()},
            {"bottle", "--format", "pdf", dir.toString()},
            {"bottle", "--slice", "soon", dir.toString()},
            {"bottle", "--group", "broken", dir.toString()}}) {
            Run r = run(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err().strip()).as(String.join(" ", args)).startsWith("lockscope: ").doesNotContain("\n");
        }
    }
}
