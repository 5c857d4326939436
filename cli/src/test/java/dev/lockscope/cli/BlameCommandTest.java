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
