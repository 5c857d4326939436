package dev.lockscope.analysis;

import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad input is a {@link RecordingException} with one clear line naming the file. */
class RecordingReaderErrorsIT {
    @TempDir
    static Path dir;
    static byte[] valid;

    @BeforeAll
    static void record() throws Exception {
        valid = Files.readAllBytes(RecordedScenario.record(dir));
    }

    private static void assertOneLine(Path file, String expected) {
        assertThatThrownBy(() -> RecordingReader.read(file))
                .isInstanceOf(RecordingException.class)
                .hasMessageContaining(expected)
                .hasMessageContaining(file.toString())
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void missingFile() {
        assertOneLine(dir.resolve("nope.jfr"), "recording not found");
    }

    @Test
    void directory() {
        assertOneLine(dir, "not a file");
    }

    @Test
    void textFileIsNotJfr() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.jfr"), "this is not a flight recording\n");
        assertOneLine(text, "not a JFR recording");
    }

    @Test
    void emptyFileIsNotJfr() throws Exception {
        assertOneLine(Files.write(dir.resolve("empty.jfr"), new byte[0]), "recording is empty");
    }

    @Test
    void truncatedRecording() throws Exception {
        Path cut = Files.write(dir.resolve("cut.jfr"), Arrays.copyOf(valid, valid.length / 2));
        assertOneLine(cut, "truncated");
    }

    /** Wherever the cut falls, the user sees one plain line: no exception class names. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {5, 10, 25, 50, 75, 90, 99})
    void recordingCutAnywhere(int percent) throws Exception {
        Path cut = Files.write(dir.resolve("cut" + percent + ".jfr"), Arrays.copyOf(valid, valid.length * percent / 100));
        assertThatThrownBy(() -> RecordingReader.read(cut))
                .isInstanceOf(RecordingException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .contains(cut.toString())
                        .containsAnyOf("truncated", "damaged")
                        .doesNotContain("\n")
                        .doesNotContain("Exception"));
    }

    /** The chunk of {@code valid} as another chunk: its header's start nanos moved by {@code shift}. */
    private static byte[] anotherChunk(long shift) {
        byte[] other = valid.clone();
        ByteBuffer.wrap(other).putLong(32, ByteBuffer.wrap(other).getLong(32) + shift);
        return other;
    }

    @Test
    void concatenatedChunksAreOneValidRecording() throws Exception {
        byte[] second = anotherChunk(1);
        byte[] both = Arrays.copyOf(valid, valid.length * 2);
        System.arraycopy(second, 0, both, valid.length, valid.length);
        Path file = Files.write(dir.resolve("both.jfr"), both);
        assertThat(LockRecording.collect(file).parks()).hasSize(2 * LockRecording.collect(
                Files.write(dir.resolve("once.jfr"), valid)).parks().size());
        assertThat(RecordingReader.read(file).warnings()).isEmpty();
    }

    /** A file that holds one chunk twice (a destination appended to again) is read as that chunk once, with a warning. */
    @Test
    void theSameChunkTwiceIsReadOnce() throws Exception {
        byte[] twice = Arrays.copyOf(valid, valid.length * 2);
        System.arraycopy(valid, 0, twice, valid.length, valid.length);
        Path file = Files.write(dir.resolve("twice.jfr"), twice);
        assertThat(LockRecording.collect(file).parks()).hasSize(LockRecording.collect(
                Files.write(dir.resolve("once.jfr"), valid)).parks().size());
        assertThat(RecordingReader.read(file).warnings()).singleElement().asString()
                .contains("1 chunk(s) a second time", "each chunk read once");
    }

    @Test
    void garbageAfterTheLastChunkIsCountedAsLost() throws Exception {
        byte[] tail = Arrays.copyOf(valid, valid.length + 40);
        RecordingInfo info = RecordingReader.read(Files.write(dir.resolve("tail.jfr"), tail));
        assertThat(info.warnings()).singleElement().asString()
                .contains("damaged", "0 of 1 chunks skipped", "40 of " + tail.length + " bytes");
    }

    /** A damaged chunk is skipped and counted; the complete chunks around it are read. */
    @Test
    void chunkWithDamagedMetadataIsSkippedAndTheOthersSalvaged() throws Exception {
        byte[] bad = anotherChunk(2);
        int metadata = (int) ByteBuffer.wrap(bad).getLong(24);
        bad[metadata + 1] = (byte) 0xFF; // the metadata event's type id: no longer 0
        byte[] three = new byte[valid.length * 3];
        System.arraycopy(valid, 0, three, 0, valid.length);
        System.arraycopy(bad, 0, three, valid.length, valid.length);
        System.arraycopy(anotherChunk(1), 0, three, 2 * valid.length, valid.length);
        Path file = Files.write(dir.resolve("three.jfr"), three);
        int onePass = LockRecording.collect(Files.write(dir.resolve("one.jfr"), valid)).parks().size();
        assertThat(LockRecording.collect(file).parks()).hasSize(2 * onePass);
        assertThat(RecordingReader.read(file).warnings()).singleElement().asString()
                .contains("1 of 3 chunks skipped", valid.length + " of " + three.length + " bytes (33.3%) lost");
    }

    /** JFR leaves a non-zero file state in the header of a chunk it never finished (a killed JVM). */
    @Test
    void chunkNeverFinishedIsReadWithAWarning() throws Exception {
        byte[] unfinished = valid.clone();
        unfinished[64] = 3;
        Path file = Files.write(dir.resolve("unfinished.jfr"), unfinished);
        RecordingInfo info = RecordingReader.read(file);
        assertThat(info.warnings()).anyMatch(w -> w.contains("not finished"));
        assertThat(LockRecording.collect(file).parks())
                .hasSize(LockRecording.collect(Files.write(dir.resolve("finished.jfr"), valid)).parks().size());
    }

    /**
     * A plain JFR recording (committed: made by a JVM where lockscope's event types were never
     * registered, which this test JVM cannot promise) warns; a recording whose metadata declares a
     * lockscope event type was made with the agent, and no events of it mean nothing happened.
     */
    @Test
    void recordingWithoutLockscopeEventsSaysSo() throws Exception {
        Path plain = dir.resolve("plain.jfr");
        try (var in = RecordingReaderErrorsIT.class.getResourceAsStream("/plain-jdk17.jfr.bin")) {
            Files.write(plain, in.readAllBytes());
        }
        assertThat(RecordingReader.read(plain).warnings()).anyMatch(w -> w.contains("no lockscope events"));
        assertThat(RecordingReader.read(plain).madeByAgent()).isFalse();
        assertThat(RecordingReader.read(Files.write(dir.resolve("one.jfr"), valid)).warnings()).isEmpty();

        jdk.jfr.FlightRecorder.register(DeclaredOnly.class);
        Path declared = dir.resolve("declared.jfr");
        try (jdk.jfr.Recording r = new jdk.jfr.Recording()) {
            r.enable("jdk.ThreadSleep").withThreshold(java.time.Duration.ZERO);
            r.start();
            Thread.sleep(5);
            r.stop();
            r.dump(declared);
        }
        RecordingInfo info = RecordingReader.read(declared);
        assertThat(info.madeByAgent()).isTrue();
        assertThat(info.declaredEventTypes()).contains("lockscope.DeclaredOnly", "jdk.ThreadSleep");
        assertThat(info.warnings()).noneMatch(w -> w.contains("no lockscope events"));
    }

    /** A lockscope event type that is registered and never written. */
    @jdk.jfr.Name("lockscope.DeclaredOnly")
    static final class DeclaredOnly extends jdk.jfr.Event {
    }

    @Test
    void recordingCutInsideTheHeader() throws Exception {
        Path cut = Files.write(dir.resolve("header.jfr"), Arrays.copyOf(valid, 20));
        assertOneLine(cut, "truncated");
    }
}
