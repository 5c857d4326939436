package dev.lockscope.analysis;

import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.BlameAnalysis;
import dev.lockscope.analysis.bottle.JfrWaits;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingReader;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Mutated recordings (byte flips, truncations, damaged chunk headers) of a real two-chunk recording through
 * the analyses of {@code report}, {@code blame} and {@code bottle} in one pass. A case passes when it ends
 * within 10 s with a result or a one-line {@link RecordingException} naming the file, and is not read clean
 * (without a warning) when the JDK's reader rejects it. Seeded: case {@code i} is the same bytes in every
 * run. {@link RecordingFuzzIT} runs the first 300 cases in the build; the performance harness's
 * {@code fuzz} section runs 10,000 through {@link #main}.
 */
public final class RecordingFuzzer {
    static final long SEED = 0x10c5c09eL;
    static final long CASE_TIMEOUT_S = 10;

    enum Outcome { CLEAN, SALVAGED, REFUSED }

    /** Outcomes counted by kind, and one line per failed case. */
    record Result(int cases, int[] outcomes, List<String> failures) {
        String summary() {
            return String.format("fuzz: %d cases, clean %d, salvaged with a warning %d, refused %d, failed %d", cases,
                    outcomes[Outcome.CLEAN.ordinal()], outcomes[Outcome.SALVAGED.ordinal()],
                    outcomes[Outcome.REFUSED.ordinal()], failures.size());
        }
    }

    private RecordingFuzzer() {
    }

    /** {@code RecordingFuzzer CASES DIR}: prints the summary and every failure; exit 1 when a case failed. */
    public static void main(String[] args) throws Exception {
        Result result = run(Integer.parseInt(args[0]), Path.of(args[1]));
        result.failures().forEach(System.out::println);
        System.out.println(result.summary());
        System.exit(result.failures().isEmpty() ? 0 : 1);
    }

    /**
     * The two chunks that every case mutates: the committed one-chunk recording twice, so that one can be
     * salvaged. A fixed recording, so that a case that fails fails every time (a fresh
     * {@code RecordedScenario.record} differs from run to run); make it again when lockscope's events change.
     */
    static byte[] source() throws IOException {
        byte[] one;
        try (InputStream in = RecordingFuzzer.class.getResourceAsStream("/fuzz/two-chunk-source.jfr.bin")) {
            one = in.readAllBytes();
        }
        byte[] two = Arrays.copyOf(one, 2 * one.length);
        System.arraycopy(one, 0, two, one.length, one.length);
        return two;
    }

    /** Case {@code index} of the seeded sequence. */
    static byte[] mutant(byte[] valid, int index) {
        Random random = new Random(SEED);
        byte[] mutant = null;
        for (int i = 0; i <= index; i++) {
            mutant = mutate(valid, random);
        }
        return mutant;
    }

    static Result run(int cases, Path dir) throws Exception {
        byte[] valid = source();
        Random random = new Random(SEED);
        int[] outcomes = new int[Outcome.values().length];
        List<String> failures = new ArrayList<>();
        Path file = dir.resolve("mutant.jfr");
        ExecutorService analyser = Executors.newSingleThreadExecutor(RecordingFuzzer::daemon);
        try {
            for (int i = 0; i < cases; i++) {
                Path mutant = Files.write(file, mutate(valid, random));
                Future<Outcome> analysis = analyser.submit(() -> analyse(mutant));
                Outcome outcome;
                try {
                    outcome = analysis.get(CASE_TIMEOUT_S, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    failures.add("case " + i + ": no result in " + CASE_TIMEOUT_S + " s");
                    analysis.cancel(true);
                    analyser.shutdownNow(); // the stuck analysis keeps its (daemon) thread; go on in a fresh one
                    analyser = Executors.newSingleThreadExecutor(RecordingFuzzer::daemon);
                    file = dir.resolve("mutant-" + i + ".jfr"); // the stuck one may still read its file
                    continue;
                } catch (java.util.concurrent.ExecutionException e) {
                    failures.add("case " + i + ": " + e.getCause());
                    continue;
                }
                outcomes[outcome.ordinal()]++;
                String jdkRejects = outcome == Outcome.CLEAN ? jdkRejects(file) : null;
                if (jdkRejects != null) {
                    failures.add("case " + i + ": read clean, but the JDK rejects it (" + jdkRejects + ")");
                }
            }
        } finally {
            analyser.shutdownNow();
        }
        return new Result(cases, outcomes, failures);
    }

    private static Thread daemon(Runnable r) {
        Thread t = new Thread(r, "fuzz-analysis");
        t.setDaemon(true);
        return t;
    }

    static Outcome analyse(Path file) {
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
            if (e.getMessage().contains("\n") || !e.getMessage().contains(file.toString())) {
                throw new IllegalStateException("not one line naming the file: " + e.getMessage());
            }
            return Outcome.REFUSED;
        }
    }

    /** Why the JDK's reader refuses the file, or null when it reads it. */
    static String jdkRejects(Path file) {
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
