package dev.lockscope.analysis.model;

import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** An empty recording (its JVM killed before writing it) names the repository chunk that holds its data. */
class KilledRecordingIT {
    @TempDir
    Path dir;

    /** A repository as a JVM of pid {@code pid} leaves it: one chunk of a recording into {@code destination}. */
    private Path repository(Path tmp, long pid, Path destination) throws Exception {
        Path repository = Files.createDirectories(tmp.resolve("2026_12_01_23_00_00_" + pid));
        Path chunk = repository.resolve("2026_12_01_23_00_01.jfr");
        try (Recording r = new Recording()) {
            r.setDestination(destination);
            r.enable("jdk.ActiveRecording");
            r.start();
            r.dump(chunk);
        }
        Files.write(destination, new byte[0]); // as the agent claimed it, and a kill left it
        return chunk;
    }

    @Test
    void theEmptyFileNamesTheChunkThatRecordedForIt() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path run = dir.resolve("run.jfr");
        repository(tmp, 999_999_998, dir.resolve("other.jfr")); // another run's leftovers
        Path chunk = repository(tmp, 999_999_999, run);
        String line = KilledRecording.emptyRecording(run, tmp);
        assertThat(line).contains("pid 999999999", "ended before writing it", "lockscope report " + chunk, run.toString())
                .doesNotContain("999999998").doesNotContain("\n");
    }

    @Test
    void withoutItsRepositoryTheLineSaysWhereToLook() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("empty-tmp"));
        Path run = Files.write(dir.resolve("lost.jfr"), new byte[0]);
        assertThat(KilledRecording.emptyRecording(run, tmp)).contains("recording is empty", tmp + "/<date>_<pid>/", run.toString());
    }
}
