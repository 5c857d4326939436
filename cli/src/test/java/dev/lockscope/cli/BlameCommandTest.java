package dev.lockscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class BlameCommandTest {
    @TempDir
    Path dir;

    @Test
    void userErrorsAreOneLineAndExitCode2() throws Exception {
        Path notJfr = Files.writeString(dir.resolve("x.jfr"), "hello");
        assertThat(run("blame", dir.resolve("missing.jfr").toString())).startsWith("2:").contains("recording not found");
        assertThat(run("blame", notJfr.toString(), "--group-by", "owner,lock")).startsWith("2:").contains("unknown aspect 'owner'");
        assertThat(run("blame", notJfr.toString(), "--format", "xml")).startsWith("2:").contains("unknown format 'xml'");
    }

    @Test
    void everyHelpExitsZero() {
        for (String command : new picocli.CommandLine(new LockscopeCli()).getSubcommands().keySet()) {
            assertThat(LockscopeCli.execute(command, "--help")).as(command + " --help").isZero();
        }
        assertThat(LockscopeCli.execute("--help")).isZero();
    }

    @Test
    void aBadIdleOrContentionPatternIsOneLine() throws Exception {
        Path notJfr = Files.writeString(dir.resolve("y.jfr"), "hello");
        assertThat(run("blame", notJfr.toString(), "--idle", "(")).startsWith("2:lockscope: --idle: not a regular expression");
        assertThat(run("report", notJfr.toString(), "--contention", "[")).startsWith("2:lockscope: --contention: not a regular expression");
        assertThat(run("report", notJfr.toString(), "--top", "0")).startsWith("2:lockscope: --top must be >= 1");
    }

    private static String run(String... args) {
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            int code = LockscopeCli.execute(args);
            return code + ":" + buf.toString(StandardCharsets.UTF_8);
        } finally {
            System.setErr(err);
        }
    }
}
