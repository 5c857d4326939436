package dev.lockscope.agent;

import dev.lockscope.core.OutputFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class RecordingSessionTest {
    @TempDir
    Path dir;

    @Test
    void fileIoIsRecordedOnlyWhenAskedForSocketIoAlways() {
        AgentOptions defaults = AgentOptions.parse("");
        assertThat(defaults.fileIo).isFalse();
        assertThat(RecordingSession.blockingIo(defaults.fileIo)).containsExactly("jdk.SocketRead", "jdk.SocketWrite");
        AgentOptions fileIo = AgentOptions.parse("fileIo");
        assertThat(fileIo.fileIo).isTrue();
        assertThat(RecordingSession.blockingIo(fileIo.fileIo))
                .containsExactlyInAnyOrder("jdk.SocketRead", "jdk.SocketWrite", "jdk.FileRead", "jdk.FileWrite");
    }

    @Test
    void theFirstJvmKeepsTheNameAndEveryFurtherOneGetsItsOwn() throws Exception {
        Path wanted = dir.resolve("sub").resolve("run.jfr");
        assertThat(RecordingSession.claimNew(wanted, OutputFiles.OWNER_ONLY)).isEqualTo(wanted);
        assertThat(wanted).exists();
        Path second = RecordingSession.claimNew(wanted, OutputFiles.OWNER_ONLY);
        assertThat(second).isEqualTo(dir.resolve("sub").resolve("run-" + ProcessHandle.current().pid() + ".jfr"));
        assertThat(Files.size(wanted)).isZero();
    }

    @Test
    void leftoversOlderThanAnHourAreRemovedAndNothingElse() throws Exception {
        Path oldBoot = Files.createFile(dir.resolve("lockscope-boot123.jar"));
        Path oldDump = Files.createFile(dir.resolve("lockscope-dump456.txt"));
        Path freshBoot = Files.createFile(dir.resolve("lockscope-boot789.jar"));
        Path other = Files.createFile(dir.resolve("other-boot.jar"));
        java.nio.file.attribute.FileTime twoHoursAgo = java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 7_200_000);
        for (Path p : new Path[] {oldBoot, oldDump, other}) {
            Files.setLastModifiedTime(p, twoHoursAgo);
        }
        LockscopeAgent.removeLeftovers(dir);
        assertThat(oldBoot).doesNotExist();
        assertThat(oldDump).doesNotExist();
        assertThat(freshBoot).exists();
        assertThat(other).exists();
    }
}
