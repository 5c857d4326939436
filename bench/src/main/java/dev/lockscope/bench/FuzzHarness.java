package dev.lockscope.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The long run of the seeded recording fuzz (analysis {@code RecordingFuzzer}, whose first 300 cases run in
 * the build as {@code RecordingFuzzIT}): 10,000 mutated and truncated recordings through the analyses of
 * {@code report}, {@code blame} and {@code bottle}, in a JVM of its own. Every case must end within 10 s in a
 * result or one line, and none may be read clean that the JDK's reader rejects.
 */
final class FuzzHarness {
    private FuzzHarness() {
    }

    static String section(BenchSettings settings) throws Exception {
        int cases = settings.smoke() ? 30 : 10_000;
        Path bench = settings.root().resolve("bench/target/lockscope-bench.jar");
        Path dir = Files.createDirectories(settings.work().resolve("fuzz"));
        Path log = settings.work().resolve("fuzz.txt");
        MeasuredProcess run = MeasuredProcess.run(List.of(settings.java(), "-cp", bench.toString(),
                "dev.lockscope.analysis.RecordingFuzzer", Integer.toString(cases), dir.toString()), log);
        String summary = run.output().lines().filter(l -> l.startsWith("fuzz: ")).reduce((a, b) -> b).orElse(null);
        if (run.exitCode() != 0 || summary == null) {
            settings.failures().incrementAndGet();
            System.err.println("fuzz: failed (exit " + run.exitCode() + "), see " + log + ":\n" + tail(run.output()));
        }
        return "## Recording fuzz\n\n"
                + "The seeded mutations of `RecordingFuzzer` (byte flips, truncations, damaged chunk headers, runs of "
                + "garbage in a committed two-chunk recording) through the analyses of `report`, `blame` and `bottle`: "
                + "each case must end within 10 s with a result or a one-line error, and none may be read clean that "
                + "the JDK's reader rejects. The build runs the first 300 cases (`RecordingFuzzIT`).\n\n"
                + "| cases | result | exit | s |\n|---|---|---|---|\n"
                + String.format(Locale.ROOT, "| %d | %s | %d | %.0f |%n", cases,
                        summary == null ? "no summary: see " + log : summary.substring("fuzz: ".length()),
                        run.exitCode(), run.wallNanos() / 1e9);
    }

    private static String tail(String output) {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
