package dev.lockscope.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OutputFilesTest {
    @TempDir
    Path dir;

    @Test
    void aFileIsWrittenOwnerOnlyAndALinkAtTheDestinationIsReplacedNotFollowed() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim.txt"), "keep me");
        Path report = dir.resolve("report.html");
        Files.createSymbolicLink(report, victim);
        OutputFiles.write(report, "<html>".getBytes(StandardCharsets.UTF_8), OutputFiles.OWNER_ONLY);
        assertThat(Files.readString(victim)).isEqualTo("keep me");
        assertThat(Files.isSymbolicLink(report)).isFalse();
        assertThat(Files.readString(report)).isEqualTo("<html>");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(report))).isEqualTo("rw-------");
        assertThat(Files.list(dir)).as("no part file left").containsExactlyInAnyOrder(victim, report);
    }

    @Test
    void aSharedModeIsExactWhateverTheUmask() throws Exception {
        Path file = dir.resolve("shared.jfr");
        OutputFiles.write(file, new byte[0], OutputFiles.fileMode("--file-mode", "0644"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
    }

    @Test
    void onlyModesWithOwnerReadWriteAndAtMostReadForOthersAreAccepted() {
        assertThat(OutputFiles.fileMode("fileMode", "0640")).isEqualTo(0640);
        assertThat(OutputFiles.fileMode("fileMode", "600")).isEqualTo(0600);
        for (String bad : new String[] {"0666", "0400", "0700", "0755", "rw", "-1", "01600"}) {
            assertThatThrownBy(() -> OutputFiles.fileMode("--file-mode", bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--file-mode must be an octal mode");
        }
    }
}
