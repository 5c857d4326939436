package dev.lockscope.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad input gets one clear line on stderr and a non-zero exit, never a stack trace. */
class BadInputIT {
    @TempDir
    Path dir;

    private static void assertOneLineError(Proc p, String expected) throws Exception {
        assertThat(p.exitCode()).isEqualTo(2);
        assertThat(p.err().strip()).contains(expected);
        assertThat(p.err().strip().lines().count()).as(p.err()).isEqualTo(1);
        assertThat(p.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void attachToMissingPid() throws Exception {
        assertOneLineError(Proc.lockscope(dir, 30, "attach", "99999999"), "no process with pid 99999999");
    }

    @Test
    void attachToAProcessThatIsNotAJvm() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "30").start();
        try {
            assertOneLineError(Proc.lockscope(dir, 30, "attach", Long.toString(sleep.pid())),
                    "process " + sleep.pid() + " is not a Java virtual machine");
        } finally {
            sleep.destroyForcibly();
        }
    }

    @Test
    void reportOnMissingFile() throws Exception {
        assertOneLineError(Proc.lockscope(dir, 30, "report", dir.resolve("nope.jfr").toString()), "recording not found");
    }

    @Test
    void reportOnNonJfrFile() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.jfr"), "this is not a flight recording\n".repeat(100));
        assertOneLineError(Proc.lockscope(dir, 30, "report", text.toString()), "not a JFR recording");
    }

    @Test
    void reportOnTruncatedFile() throws Exception {
        Path jfr = dir.resolve("whole.jfr");
        Proc run = Proc.run(dir, 60, Proc.demoCommand("file=" + jfr + ",report=off", "frequent-juc", "--threads", "4", "--seconds", "1"));
        assertThat(run.exitCode()).isZero();
        byte[] bytes = Files.readAllBytes(jfr);
        Path cut = dir.resolve("cut.jfr");
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Proc report = Proc.lockscope(dir, 30, "report", cut.toString());
        // the complete chunks before the cut are salvaged with a warning; with none, one line and exit 2
        if (report.exitCode() == 0) {
            assertThat(report.err()).contains("lockscope: warning: recording is damaged").doesNotContain("\tat ");
        } else {
            assertThat(report.exitCode()).isEqualTo(2);
            assertThat(report.err()).containsAnyOf("truncated", "damaged").doesNotContain("\tat ");
        }
    }

    @Test
    void recordWithBadThreshold() throws Exception {
        assertOneLineError(Proc.lockscope(dir, 30, "record", "--threshold", "fast", "--", "java", "-version"),
                "--threshold must be a duration");
    }

    @Test
    void outOfRangeOptionValuesAreOneLine() throws Exception {
        assertOneLineError(Proc.lockscope(dir, 30, "record", "--threshold", "-1ms", "--", "java", "-version"),
                "--threshold must not be negative, not '-1ms'");
        // 10^17 s would wrap JFR's nanoseconds to about 246 years
        assertOneLineError(Proc.lockscope(dir, 30, "record", "--threshold", "100000000000000000s", "--", "java", "-version"),
                "--threshold must be between 0 and 1h");
        assertOneLineError(Proc.lockscope(dir, 30, "record", "--print-threshold", "-5", "--", "java", "-version"),
                "--print-threshold must not be negative");
        assertOneLineError(Proc.lockscope(dir, 30, "record", "--max-size", "1k", "--", "java", "-version"),
                "--max-size must be 0 (no cap) or at least 1m");
        assertOneLineError(Proc.lockscope(dir, 30, "attach", "1", "--duration", "99999999999h"),
                "--duration must be at most 365 days");
        assertOneLineError(Proc.lockscope(dir, 30, "record", "--deep-exclude", "com.example.**", "--", "java", "-version"),
                "--deep-exclude needs --deep");
        assertOneLineError(Proc.lockscope(dir, 30, "record", "--deep", "com/example", "--", "java", "-version"),
                "--deep pattern 'com/example' may hold only");
    }

    @Test
    void recordOfAMissingCommand() throws Exception {
        assertOneLineError(Proc.lockscope(dir, 30, "record", "--", "no-such-program-xyz"), "cannot start 'no-such-program-xyz'");
    }

    @Test
    void unknownOptionIsOneLine() throws Exception {
        assertOneLineError(Proc.lockscope(dir, 30, "report", "--bogus", "x.jfr"), "Unknown option: '--bogus' (see: lockscope report --help)");
    }

    @Test
    void unknownDemo() throws Exception {
        assertOneLineError(Proc.lockscope(dir, 30, "demo", "nope"), "unknown demo pattern 'nope'");
    }
}
