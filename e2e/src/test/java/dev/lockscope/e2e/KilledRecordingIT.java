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
        killWhileRecording("file=" + dir.resolve("never.jfr") + ",report=off", "-XX:FlightRecorderOptions:repository=" + repo, repo);
        Path chunk = chunkIn(repo);

        Proc report = Proc.lockscope(dir, 60, "report", chunk.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        assertThat(report.err()).contains("lockscope: warning: recording was not finished by its JVM").doesNotContain("\tat ");
        assertThat(report.out()).contains("ReentrantLock$NonfairSync");
    }

    /**
     * Under {@code lockscope record} the agent claims the destination at start, so a kill leaves it
     * empty: {@code report} of it names the repository chunk (found in the temp directory by the
     * destination JFR wrote into it), and that chunk reads.
     */
    @Test
    void theEmptyDestinationNamesTheChunkToRead() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path run = dir.resolve("run.jfr");
        Proc demo = killWhileRecording("file=" + run + ",newFile=true,report=off", "-Djava.io.tmpdir=" + tmp, tmp);
        Path chunk = chunkIn(tmp);
        assertThat(Files.size(run)).as("the destination a kill leaves").isZero();

        List<String> report = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp, "-jar", Proc.LOCKSCOPE_JAR.toString(), "report", run.toString());
        Proc empty = Proc.run(dir, 60, report);
        assertThat(empty.exitCode()).isEqualTo(2);
        String line = empty.err().strip();
        assertThat(line).doesNotContain("\n").startsWith("lockscope: recording is empty")
                .contains("pid " + demo.process.pid(), "ended before writing it", chunk.getParent().toString());
        Path repository = chunkIn(tmp).getParent();
        Path named;
        if (line.contains("cat " + repository + "/*.jfr > salvaged.jfr")) { // several chunks: as the line says
            named = dir.resolve("salvaged.jfr");
            try (Stream<Path> chunks = Files.list(repository)) {
                for (Path c : chunks.filter(p -> p.toString().endsWith(".jfr")).sorted().toList()) {
                    Files.write(named, Files.readAllBytes(c), java.nio.file.StandardOpenOption.CREATE,
                            java.nio.file.StandardOpenOption.APPEND);
                }
            }
        } else {
            named = Path.of(line.replaceAll(".*lockscope report (\\S+\\.jfr).*", "$1"));
        }
        Proc salvaged = Proc.lockscope(dir, 60, "report", named.toString());
        assertThat(salvaged.exitCode()).as(salvaged.err()).isZero();
        assertThat(salvaged.out()).contains("ReentrantLock$NonfairSync");
    }

    /**
     * Runs a contended demo under the agent with {@code agentArgs} and the JVM option {@code jvmOption},
     * and kills it (-9) once JFR has flushed its chunk in {@code repositories} a few times.
     */
    private Proc killWhileRecording(String agentArgs, String jvmOption, Path repositories) throws Exception {
        List<String> cmd = new ArrayList<>(Proc.demoCommand(agentArgs, "large-cs-juc", "--threads", "4", "--seconds", "60"));
        cmd.add(1, jvmOption);
        Proc demo = Proc.start(dir, cmd);
        Path chunk = null;
        // JFR flushes the chunk about once a second; wait for a few flushes of the contended phase, then kill
        for (int i = 0; i < 300 && (chunk == null || sizeOf(chunk) < 100_000); i++) {
            Thread.sleep(100);
            chunk = Files.isDirectory(repositories) ? chunkIn(repositories) : null;
        }
        assertThat(chunk).as("a repository chunk").isNotNull();
        // then one more flush, so the chunk holds contention written after the first flushes too
        long flushed = sizeOf(chunk);
        Proc.await(30, "another flush of the repository chunk", () -> sizeOf(chunkIn(repositories)) > flushed);
        demo.process.destroyForcibly().waitFor();
        return demo;
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
