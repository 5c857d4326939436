package dev.lockscope.analysis;

import dev.lockscope.analysis.blame.BlameAnalysis;
import dev.lockscope.analysis.bottle.JfrWaits;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingReader;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Mutated recordings (byte flips, truncations, damaged chunk headers) of a real two-chunk recording
 * through the analyses of {@code report}, {@code blame} and {@code bottle} in one pass. Each case
 * finishes within 10 s with a result or a one-line {@link RecordingException}, and none is read
 * clean (without a warning) when the JDK's reader rejects it. Seeded; {@code -Dlockscope.fuzz.cases=10000}
 * runs the long version.
 */
class RecordingFuzzTest {
    private static final long SEED = 0x10c5c09eL;
    private static final int CASES = Integer.getInteger("lockscope.fuzz.cases", 300);

    @TempDir
    static Path dir;
    static byte[] valid;

    /**
     * A fixed recording, so that every run mutates the same bytes and a case that fails fails every time
     * (the one a fresh {@code RecordedScenario.record} makes differs from run to run). Made by
     * {@link RecordedScenario#record}; make it again when lockscope's events change.
     */
    @BeforeAll
    static void load() throws Exception {
        byte[] one;
        try (var in = RecordingFuzzTest.class.getResourceAsStream("/fuzz/two-chunk-source.jfr.bin")) {
            one = in.readAllBytes();
        }
        valid = Arrays.copyOf(one, 2 * one.length); // two chunks, so that one can be salvaged
        System.arraycopy(one, 0, valid, one.length, one.length);
    }

    enum Outcome { CLEAN, SALVAGED, REFUSED }

    @Test
    void mutatedRecordingsEndInAResultOrOneLine() throws Exception {
        Random random = new Random(SEED);
        int[] outcomes = new int[Outcome.values().length];
        Path file = dir.resolve("mutant.jfr");
        for (int i = 0; i < CASES; i++) {
            byte[] mutant = mutate(valid, random);
            Files.write(file, mutant);
            String jdkRejects = jdkRejects(file);
            Outcome outcome = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> analyse(file), "case " + i);
            outcomes[outcome.ordinal()]++;
            if (jdkRejects != null) {
                assertThat(outcome).as("case %d: the JDK rejects it (%s), so it must not be read clean", i, jdkRejects)
                        .isNotEqualTo(Outcome.CLEAN);
            }
        }
        System.out.printf("fuzz: %d cases, clean %d, salvaged with a warning %d, refused %d%n", CASES,
                outcomes[0], outcomes[1], outcomes[2]);
        assertThat(outcomes[Outcome.SALVAGED.ordinal()]).isPositive();
    }

    private static Outcome analyse(Path file) {
        try {
            LockContentionAnalysis table = new LockContentionAnalysis(ContentionOptions.DEFAULTS);
            BlameAnalysis blame = new BlameAnalysis();
            JfrWaits waits = new JfrWaits();
            RecordingInfo info = RecordingReader.read(file, table, blame, waits);
            table.result();
            blame.result();
            waits.intervals(0);
            return info.warnings().isEmpty() ? Outcome.CLEAN : Outcome.SALVAGED;
        } catch (RecordingException e) {
            assertThat(e.getMessage()).doesNotContain("\n").contains(file.toString());
            return Outcome.REFUSED;
        }
    }

    /** Why the JDK's reader refuses the file, or null when it reads it. */
    private static String jdkRejects(Path file) {
        try {
            RecordingFile.readAllEvents(file);
            return null;
        } catch (Exception | Error e) {
            return String.valueOf(e);
        }
    }

    static byte[] mutate(byte[] valid, Random random) {
        byte[] b = valid.clone();
        int chunk = ByteBuffer.wrap(valid).getInt(8 + 4); // low half of the first chunk's size
        switch (random.nextInt(4)) {
            case 0 -> { // a few flipped bytes anywhere
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    b[random.nextInt(b.length)] ^= (byte) (1 + random.nextInt(255));
                }
            }
            case 1 -> b = Arrays.copyOf(b, random.nextInt(b.length)); // truncated
            case 2 -> { // a damaged chunk header, of the first or the second chunk
                int at = (random.nextBoolean() ? 0 : chunk) + random.nextInt(68);
                b[at] = (byte) random.nextInt(256);
            }
            default -> { // a run of garbage
                int at = random.nextInt(b.length);
                for (int i = at; i < Math.min(b.length, at + 1 + random.nextInt(64)); i++) {
                    b[i] = (byte) random.nextInt(256);
                }
            }
        }
        return b;
    }
}
