package dev.lockscope.sched;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A .sched file names the threads: it is written as every file lockscope writes, 0600 and never through a link. */
class SchedFileWriteTest {
    @TempDir
    Path dir;

    private static SchedTrace trace() {
        return new SchedTrace(SchedSource.PERF, null, 42, 2, 0, 1_000_000, Map.of(10, "worker-0"),
                List.of(new Transition(1_000, 10, ThreadState.RUNNING)), List.of(), 7);
    }

    @Test
    void theFileIsTheOwnersOnlyWhateverTheUmask() throws Exception {
        Path file = dir.resolve("run.sched");
        SchedFile.write(trace(), file);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        try (var files = Files.list(dir)) {
            assertThat(files).as("no part file left beside it").containsExactly(file);
        }
    }

    @Test
    void aSymlinkAtTheDestinationIsReplacedNotFollowed() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim.txt"), "keep me");
        Path file = Files.createSymbolicLink(dir.resolve("run.sched"), victim);
        SchedFile.write(trace(), file);
        assertThat(Files.readString(victim)).isEqualTo("keep me");
        assertThat(Files.isSymbolicLink(file)).isFalse();
        assertThat(SchedFile.read(file)).isEqualTo(trace());
    }
}
