package dev.lockscope.agent;

import dev.lockscope.core.OutputFiles;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RecordingSession#writeOnce}: the recording's file holds each chunk once whether the agent's dump or
 * JFR's shutdown hook writes it, including when the hook stops the recording right after the agent's dump.
 */
class WriteOnceIT {
    @TempDir
    Path dir;

    @Name("lockscope.test.WriteOnce")
    static final class Marker extends Event {
    }

    private Recording runningWithDestination(Path file) throws Exception {
        Recording r = new Recording();
        r.enable(Marker.class);
        r.setDestination(file); // as the agent's start does, for JFR's hook
        r.start();
        for (int i = 0; i < 10; i++) {
            new Marker().commit();
        }
        return r;
    }

    private static long markers(Path file) throws Exception {
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("lockscope.test.WriteOnce")).count();
    }

    @Test
    void ourDumpIsTheFileWhenNothingStopsTheRecording() throws Exception {
        Path file = dir.resolve("ours.jfr");
        try (Recording r = runningWithDestination(file)) {
            assertThat(RecordingSession.writeOnce(r, file, OutputFiles.OWNER_ONLY, () -> { })).isTrue();
            assertThat(r.getDestination()).isNull();
        }
        assertThat(markers(file)).isEqualTo(10);
        assertThat(Files.list(dir)).as("no part file left").containsExactly(file);
    }

    /** What JFR's shutdown hook does at exit: stop every recording and write its destination, by appending. */
    @Test
    void aStopRightAfterOurDumpLeavesEachChunkOnce() throws Exception {
        Path file = dir.resolve("raced.jfr");
        try (Recording r = runningWithDestination(file)) {
            assertThat(RecordingSession.writeOnce(r, file, OutputFiles.OWNER_ONLY, r::stop)).isFalse();
            assertThat(r.getState()).isIn(RecordingState.STOPPED, RecordingState.CLOSED);
        }
        assertThat(markers(file)).as("each marker once: the stop wrote the whole recording, our dump was dropped").isEqualTo(10);
        assertThat(Files.list(dir)).as("no part file left").containsExactly(file);
    }

    /**
     * JFR's dump opens its path through a symlink and truncates the target (WriteablePath): a link planted at
     * the old, predictable FILE.part, or at FILE itself, must leave the linked file as it was.
     */
    @Test
    void theFileGetsTheFileModeAndNoPlantedLinkIsFollowed() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim.txt"), "keep me");
        Path file = dir.resolve("linked.jfr");
        Files.createSymbolicLink(file, victim);
        Files.createSymbolicLink(dir.resolve("linked.jfr.part"), victim);
        try (Recording r = new Recording()) {
            r.enable(Marker.class);
            r.start();
            new Marker().commit();
            assertThat(RecordingSession.writeOnce(r, file, 0640, () -> { })).isTrue();
        }
        assertThat(Files.readAllBytes(victim)).as("the linked file").isEqualTo("keep me".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(Files.isSymbolicLink(file)).as("the link itself was replaced").isFalse();
        assertThat(markers(file)).isEqualTo(1);
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r-----");
    }
}
