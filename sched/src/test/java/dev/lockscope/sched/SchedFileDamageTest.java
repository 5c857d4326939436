package dev.lockscope.sched;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A cut or altered .sched file is a {@link SchedFormatException} with one line naming it, never another trace. */
class SchedFileDamageTest {
    @TempDir
    Path dir;

    private Path written() {
        List<Transition> transitions = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            transitions.add(new Transition(1_000L * i, 10 + i % 4, i % 2 == 0 ? ThreadState.RUNNING : ThreadState.BLOCKED));
        }
        SchedTrace trace = new SchedTrace(SchedSource.PERF, null, 42, 2, 0, 1_000_000,
                Map.of(10, "worker-0", 11, "worker-1", 12, "odd\rname", 13, "worker-3"), transitions, List.of(), 7);
        Path file = dir.resolve("run.sched");
        SchedFile.write(trace, file);
        assertThat(readOrFail(file)).isEqualTo(trace); // the name with a carriage return comes back
        return file;
    }

    private static SchedTrace readOrFail(Path file) {
        try {
            return SchedFile.read(file);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertDamaged(Path file, String... expectedAny) {
        assertThatThrownBy(() -> SchedFile.read(file))
                .isInstanceOf(SchedFormatException.class)
                .hasMessageContaining(file.toString())
                .satisfies(e -> assertThat(e.getMessage()).containsAnyOf(expectedAny).doesNotContain("\n"));
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 50, 90, 99})
    void aCutFileIsAnError(int percent) throws Exception {
        Path file = written();
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length * percent / 100));
        assertDamaged(file, "is cut", "is damaged: malformed record"); // a cut inside a line leaves a malformed one
    }

    /** Digits flipped in a transition's time or thread: still a well-formed record, so only the CRC sees it. */
    @Test
    void aFlippedByteIsAnError() throws Exception {
        Path file = written();
        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.UTF_8);
        int at = text.indexOf("\nt\t5000\t") + "\nt\t5".length();
        bytes[at] = (byte) '9';
        Files.write(file, bytes);
        assertDamaged(file, "does not match its end record");
    }

    @Test
    void linesAfterTheEndRecordAreAnError() throws Exception {
        Path file = written();
        Files.writeString(file, "t\t1\t10\tI\n", java.nio.file.StandardOpenOption.APPEND);
        assertDamaged(file, "after its end record");
    }

    /** Files of version 1, written before the end record, are still read (unchecked). */
    @Test
    void versionOneIsReadWithoutACheck() throws Exception {
        Path file = dir.resolve("old.sched");
        Files.writeString(file, "lockscope-sched\t1\nsource\tperf\npid\t42\ncpus\t2\nwindow\t0\t100\nthread\t10\tw\nt\t5\t10\tI\n");
        assertThat(SchedFile.read(file).transitions()).hasSize(1);
    }

    @Test
    void aLaterVersionNamesTheVersion() throws Exception {
        Path file = Files.writeString(dir.resolve("new.sched"), "lockscope-sched\t3\nsource\tperf\n");
        assertDamaged(file, "version 3");
    }
}
