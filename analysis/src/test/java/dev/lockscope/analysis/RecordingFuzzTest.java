package dev.lockscope.analysis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seeded fuzz of {@link RecordingFuzzer} in the build: its first 300 cases ({@code -Dlockscope.fuzz.cases=N}
 * for more; the performance harness's {@code fuzz} section runs 10,000).
 */
class RecordingFuzzTest {
    private static final int CASES = Integer.getInteger("lockscope.fuzz.cases", 300);

    @TempDir
    Path dir;

    @Test
    void mutatedRecordingsEndInAResultOrOneLine() throws Exception {
        RecordingFuzzer.Result result = RecordingFuzzer.run(CASES, dir);
        System.out.println(result.summary());
        assertThat(result.failures()).isEmpty();
        assertThat(result.outcomes()[RecordingFuzzer.Outcome.SALVAGED.ordinal()]).isPositive();
    }

    /**
     * Case 4633, which the 10,000-case run found: a flipped byte makes {@code jdk.ProcessStart} a class that
     * is not an event type but has settings. The JDK's reader fails on it (a ClassCastException from
     * {@code MetadataReader.defineTypes}); ours read it clean until it refused such metadata too.
     */
    @Test
    void settingsOfATypeThatIsNotAnEventAreDamage() throws Exception {
        Path file = dir.resolve("case-4633.jfr");
        Files.write(file, RecordingFuzzer.mutant(RecordingFuzzer.source(), 4633));
        assertThat(RecordingFuzzer.jdkRejects(file)).contains("ClassCastException");
        assertThat(RecordingFuzzer.analyse(file)).isEqualTo(RecordingFuzzer.Outcome.SALVAGED);
    }
}
