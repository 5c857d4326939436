package dev.lockscope.analysis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seeded fuzz of {@link RecordingFuzzer} in the build: its first 300 cases ({@code -Dlockscope.fuzz.cases=N}
 * for more; the performance harness's {@code fuzz} section runs 10,000).
 */
class RecordingFuzzIT {
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
     * The cases the 10,000-case run found that the JDK's reader rejects with an exception from inside its
     * {@code MetadataReader.defineTypes} and ours read clean until it refused the same metadata: 4633, a
     * flipped byte makes {@code jdk.ProcessStart} a class that is not an event type but has settings
     * (ClassCastException); 8671, a flipped byte gives two classes one id (UnsupportedOperationException).
     */
    @ParameterizedTest
    @CsvSource({"4633, ClassCastException", "8671, UnsupportedOperationException"})
    void metadataTheJdkCannotReadIsDamage(int index, String jdkFailure) throws Exception {
        Path file = dir.resolve("case-" + index + ".jfr");
        Files.write(file, RecordingFuzzer.mutant(RecordingFuzzer.source(), index));
        assertThat(RecordingFuzzer.jdkRejects(file)).contains(jdkFailure);
        assertThat(RecordingFuzzer.analyse(file)).isEqualTo(RecordingFuzzer.Outcome.SALVAGED);
    }
}
