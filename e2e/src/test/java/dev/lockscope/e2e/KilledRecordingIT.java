package dev.lockscope.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} of a profiled JVM leaves only JFR's repository chunk, whose header the JVM never
 * finished: {@code lockscope report} reads it up to its last flush and says so in a warning.
 */
class KilledRecordingIT {
    @TempDir
    Path dir;

    @Test
    void theRepositoryChunkOfAKilledJvmIsSalvaged() throws Exception {
        Path repo = dir.resolve("repo");
        List<String> cmd = new ArrayList<>(Proc.demoCommand("file=" + dir.resolve("never.jfr") + ",report=off",
                "large-cs-juc", "--threads", "4", "--seconds", "60"));
        cmd.add(1, "-XX:FlightRecorderOptions:repository=" + repo);
        Proc demo = Proc.start(dir, cmd);
        Path chunk = null;
        // JFR flushes the chunk about once a second; wait for a few flushes, then kill
        for (int i = 0; i < 300 && (chunk == null || sizeOf(chunk) < 100_000); i++) {
            Thread.sleep(100);
            chunk = Files.isDirectory(repo) ? chunkIn(repo) : null;
        }
        assertThat(chunk).as("a repository chunk").isNotNull();
        // then one more flush, so the chunk holds contention written after the first flushes too
        long flushed = sizeOf(chunk);
        Proc.await(30, "another flush of the repository chunk", () -> sizeOf(chunkIn(repo)) > flushed);
        demo.process.destroyForcibly().waitFor();
        chunk = chunkIn(repo);

        Proc report = Proc.lockscope(dir, 60, "report", chunk.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        assertThat(report.err()).contains("lockscope: warning: recording was not finished by its JVM").doesNotContain("\tat ");
        assertThat(report.out()).contains("ReentrantLock$NonfairSync");
    }

    /** The file's size; 0 when the running JVM has just removed it. */
    private static long sizeOf(Path file) throws Exception {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    private static Path chunkIn(Path repo) throws Exception {
        try (Stream<Path> files = Files.walk(repo)) {
            // the chunk being written: JFR names chunks by their start time, and the agent's own event
            // stream rotates the first, short chunk out when it starts
            return files.filter(p -> p.toString().endsWith(".jfr")).max(java.util.Comparator.comparing(Path::toString)).orElse(null);
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof NoSuchFileException) {
                return null; // the running JVM removed a file or folder of the repository while it was listed: look again
            }
            throw e;
        }
    }
}
