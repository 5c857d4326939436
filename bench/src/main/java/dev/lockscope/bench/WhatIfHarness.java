package dev.lockscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The replay checked against the experiment on real libraries: {@code lockscope whatif --measure --top 1} on
 * log4j2, Derby, commons-pool2 and the Caffeine cache with a slow loader ({@link LibraryWorkloads}), which profiles
 * the workload, lengthens its top application lock site's holds 1.5× by delaying each release, runs it as it is
 * and delayed in turn until the change is resolved, and prints the replay's prediction for the same lengthening
 * from the profiled run beside the measured change. A prediction is right when it is within 20% (relative) of
 * the measured change.
 */
final class WhatIfHarness {
    /** A replay's prediction this close to the measured change (relative to it) is right. */
    static final double WITHIN = 0.20;

    private final BenchSettings settings;

    private WhatIfHarness(BenchSettings settings) {
        this.settings = settings;
    }

    static String section(BenchSettings settings) throws Exception {
        return new WhatIfHarness(settings).measure();
    }

    /** One workload: its name in {@link LibraryWorkloads}, its threads, and what it is. */
    record Workload(String name, int threads, String what) {
    }

    /**
     * What {@code whatif --measure} said of a workload's top site; null fields where it said nothing. {@code whyNot}:
     * why it measured nothing, in its own words (it exits 2 with one line: no held lock to lengthen, say);
     * {@code failure}: the run failed otherwise.
     */
    record Result(Workload workload, String site, double holdNanos, double lengthenedBy, String outcome, int runs,
                  double changePct, double lowPct, double highPct, Double predictedPct, String confidence,
                  Double errorPct, String notChecked, String whyNot, String failure, double seconds) {
        String verdict() {
            if (failure != null) {
                return "failed: " + failure;
            }
            if (whyNot != null) {
                return "not measured: " + whyNot;
            }
            if (!outcome.equals("resolved")) {
                return "no check: the measured change " + outcome;
            }
            if (predictedPct == null) {
                return "no prediction: the replay saw no hold at the site";
            }
            if (notChecked != null) {
                return "no check: " + notChecked;
            }
            return Math.abs(errorPct) <= 100 * WITHIN ? "within 20%" : "off by more than 20%";
        }
    }

    List<Workload> workloads() {
        List<Workload> all = new ArrayList<>();
        all.add(new Workload("log4j2", 16, "log4j2 2.x synchronous FileAppender, 16 threads logging to one file"));
        if (!settings.smoke()) {
            all.add(new Workload("derby", 16, "embedded Derby, 16 threads updating 4 hot rows (row locks, Object.wait)"));
            all.add(new Workload("object-pool", 16, "commons-pool2, 16 threads borrowing 4 objects for 2 ms each"));
            all.add(new Workload("caffeine", 16, "Caffeine LoadingCache, 4 keys, a 20 ms loader run inside ConcurrentHashMap.compute"));
        }
        return all;
    }

    private String measure() throws Exception {
        List<Result> results = new ArrayList<>();
        for (Workload w : workloads()) {
            Result r = run(w);
            if (r.failure() != null) {
                settings.failures().incrementAndGet();
            }
            results.add(r);
        }
        return markdown(results);
    }

    private Result run(Workload w) throws IOException, InterruptedException {
        Path out = settings.work().resolve("whatif-" + w.name() + ".json");
        Path err = settings.work().resolve("whatif-" + w.name() + ".txt");
        String seconds = settings.smoke() ? "1" : "4";
        List<String> cmd = new ArrayList<>(List.of(settings.java(), "-jar",
                settings.root().resolve("cli/target/lockscope.jar").toString(), "whatif", "--measure", "--top", "1",
                "--runs", settings.smoke() ? "3" : "15", "--format", "json", "--",
                settings.java(), "-cp", settings.root().resolve("bench/target/lockscope-bench.jar").toString(),
                LibraryWorkloads.class.getName(), w.name(), Integer.toString(w.threads()), "1", seconds));
        System.err.println("whatif: " + w.name() + " (" + String.join(" ", cmd.subList(3, cmd.size())) + ")");
        long start = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            return failed(w, "did not finish in 60 minutes, see " + err, start);
        }
        List<String> lines = Files.readAllLines(err);
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
        if (p.exitValue() == 2 && last.startsWith("lockscope: ")) {
            System.err.println("whatif: " + w.name() + ": " + last);
            return new Result(w, null, Double.NaN, Double.NaN, null, 0, Double.NaN, Double.NaN, Double.NaN, null, null, null,
                    null, last.substring("lockscope: ".length()), null, (System.nanoTime() - start) / 1e9);
        }
        if (p.exitValue() != 0) {
            return failed(w, "exit " + p.exitValue() + ": " + last, start);
        }
        JsonNode measured;
        try {
            measured = new ObjectMapper().readTree(out.toFile()).path("measured").path(0);
        } catch (IOException e) {
            return failed(w, "unreadable JSON in " + out + ": " + e.getMessage(), start);
        }
        if (measured.isMissingNode()) {
            return failed(w, "no site measured, see " + err, start);
        }
        JsonNode predicted = measured.path("predictedLengthened");
        boolean hasPrediction = predicted.isObject() && predicted.path("changePct").isNumber();
        return new Result(w, measured.path("site").asText(), measured.path("holdNanos").asDouble(),
                measured.path("lengthenedBy").asDouble(), measured.path("outcome").asText(), measured.path("runs").asInt(),
                measured.path("changePct").asDouble(Double.NaN), measured.path("lowPct").asDouble(Double.NaN),
                measured.path("highPct").asDouble(Double.NaN), hasPrediction ? predicted.path("changePct").asDouble() : null,
                hasPrediction ? predicted.path("confidence").asText() : null,
                hasPrediction && predicted.path("errorPct").isNumber() ? predicted.path("errorPct").asDouble() : null,
                hasPrediction && predicted.path("notChecked").isTextual() ? predicted.path("notChecked").asText() : null, null,
                null, (System.nanoTime() - start) / 1e9);
    }

    private static Result failed(Workload w, String why, long start) {
        System.err.println("whatif: " + w.name() + ": " + why);
        return new Result(w, null, Double.NaN, Double.NaN, null, 0, Double.NaN, Double.NaN, Double.NaN, null, null, null, null,
                null, why, (System.nanoTime() - start) / 1e9);
    }

    static String markdown(List<Result> results) {
        StringBuilder md = new StringBuilder("## What-if: the replay against the experiment\n\n");
        md.append("`lockscope whatif --measure --top 1 --runs N --format json -- java -cp bench/target/lockscope-bench.jar "
                + "dev.lockscope.bench.LibraryWorkloads <workload> 16 1 <seconds>` per workload: a profiled run finds the "
                + "application's lock site waited for most, a deep-mode run times every hold there, then runs as it is and "
                + "with each release at the site delayed by half its mean hold alternate until the median change's interval "
                + "is narrower than the change (or N delayed runs). Beside the measured change, the replay of the profiled "
                + "run predicts the same lengthening; it is right within 20% of the measured change (relative).\n\n");
        md.append("| workload | site | mean hold | holds × | measured change | delayed runs | replay | error | verdict | s |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            if (r.site() == null) {
                md.append(String.format(Locale.ROOT, "| %s | | | | | | | | %s | %.0f |%n", r.workload().name(), r.verdict(), r.seconds()));
                continue;
            }
            md.append(String.format(Locale.ROOT, "| %s | `%s` | %s | %.2f | %+.1f%% [%+.1f, %+.1f] %s | %d | %s | %s | %s | %.0f |%n",
                    r.workload().name(), r.site(), hold(r.holdNanos()), r.lengthenedBy(), r.changePct(), r.lowPct(),
                    r.highPct(), r.outcome(), r.runs(),
                    r.predictedPct() == null ? "-" : String.format(Locale.ROOT, "%+.1f%% %s", r.predictedPct(), r.confidence()),
                    r.errorPct() == null ? "-" : String.format(Locale.ROOT, "%+.0f%%", r.errorPct()), r.verdict(), r.seconds()));
        }
        long predicted = results.stream().filter(r -> r.predictedPct() != null).count();
        long right = results.stream().filter(r -> r.verdict().equals("within 20%")).count();
        long checked = results.stream().filter(r -> r.errorPct() != null).count();
        md.append(String.format(Locale.ROOT, "%nThe replay predicted %d of %d workloads' top sites; %d of them checked by the "
                + "experiment, %d within 20%% of the measured change. Error: (predicted − measured) / |measured|; no check "
                + "where the measured slow-down is more than the longer holds cost by themselves (1/k − 1 at the lock's pace "
                + "alone), a cost of the hand-offs the replay does not follow. The workloads: ", predicted, results.size(),
                checked, right));
        md.append(String.join("; ", results.stream().map(r -> r.workload().name() + ", " + r.workload().what()).toList()));
        md.append(".\n");
        return md.toString();
    }

    private static String hold(double nanos) {
        return Double.isNaN(nanos) ? "-" : nanos >= 1e6 ? String.format(Locale.ROOT, "%.2f ms", nanos / 1e6)
                : String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
    }
}
