package dev.lockscope.analysis;

import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.RecordingReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad input is a {@link RecordingException} with one clear line naming the file. */
class RecordingReaderErrorsTest {
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
        assertOneLine(Files.write(dir.resolve("empty.jfr"), new byte[0]), "not a JFR recording");
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

    @Test
    void concatenatedChunksAreOneValidRecording() throws Exception {
        byte[] twice = Arrays.copyOf(valid, valid.length * 2);
        System.arraycopy(valid, 0, twice, valid.length, valid.length);
        Path file = Files.write(dir.resolve("twice.jfr"), twice);
        assertThat(LockRecording.collect(file).parks()).hasSize(2 * LockRecording.collect(
                Files.write(dir.resolve("once.jfr"), valid)).parks().size());
    }

    @Test
    void garbageAfterTheLastChunk() throws Exception {
        byte[] tail = Arrays.copyOf(valid, valid.length + 40);
        assertOneLine(Files.write(dir.resolve("tail.jfr"), tail), "damaged");
    }

    @Test
    void recordingCutInsideTheHeader() throws Exception {
        Path cut = Files.write(dir.resolve("header.jfr"), Arrays.copyOf(valid, 20));
        assertOneLine(cut, "truncated");
    }
}
