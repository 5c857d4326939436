package dev.lockscope.bench;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sampling-period curve of owner blame on {@code synchronized} (issue 16): in the default mode a monitor
 * owner's code comes from its own samples inside the interval a thread waited (docs/owner-blame.md), so where
 * holders compute rather than sleep or block, the CPU sampling period ({@code cpuSamples}) sets how many points
 * each wait gets. Runs one {@link GroundTruthWorkload} whose holders compute ({@code split sync --busy}, two
 * sites back to back, 3:7) bare and under the agent at each period, interleaved with the order rotated each
 * repetition, and writes per period the owner shares' error against the workload's own truth, and the
 * process's CPU time per operation and throughput against the bare runs. Writes one Markdown section,
 * {@code ## Owner blame against the CPU sampling period}. Run through {@link PerformanceReport}.
 */
final class OwnerSamplingHarness {
    /** The periods measured, and {@code off} (no CPU samples: the owner's chain falls back to other evidence). */
    static final List<String> PERIODS = List.of("1ms", "2ms", "5ms", "10ms", "20ms", "50ms", "off");
    private static final String BARE = "none";
    private static final Pattern THROUGHPUT = Pattern.compile("throughput: ([0-9.]+) ops/s");

    /** One run: its configuration, the owner-share errors (pp, one per site) and its cost. */
    record Run(String config, int repeat, List<Double> shareErrors, double throughput, double cpuNanosPerOp) {
    }

    private OwnerSamplingHarness() {
    }

    static List<String> workloadArgs(boolean smoke) {
        return List.of("split", "sync", "--busy", "--threads", "4", "--split", "3:7", "--unit-ms", "2",
                "--seconds", smoke ? "1" : "5");
    }

    static String section(BenchSettings settings) throws Exception {
        int repeats = settings.smoke() ? 1 : Math.min(settings.repeats(), 5);
        List<String> configs = new ArrayList<>();
        configs.add(BARE);
        configs.addAll(settings.smoke() ? List.of("20ms") : PERIODS);
        List<Run> runs = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int total = repeats * configs.size();
        int done = 0;
        for (int r = 0; r < repeats; r++) {
            for (int c = 0; c < configs.size(); c++) {
                String config = configs.get((c + r) % configs.size());
                System.err.printf(Locale.ROOT, "owner-sampling: [%d/%d] %s%n", ++done, total, config);
                try {
                    runs.add(run(settings, config, r));
                } catch (Exception e) {
                    failures.add(config + " (repeat " + r + "): " + e.getMessage().lines().findFirst().orElse(""));
                }
            }
        }
        settings.failures().addAndGet(failures.size());
        return markdown(runs, repeats, failures, settings.smoke());
    }

    private static Run run(BenchSettings settings, String config, int repeat) throws Exception {
        Path jfr = settings.work().resolve("owner-sampling-" + config + "-" + repeat + ".jfr");
        List<String> cmd = new ArrayList<>();
        cmd.add(settings.java());
        if (!config.equals(BARE)) {
            cmd.addAll(Profilers.agent(settings.root().resolve("agent/target/lockscope-agent.jar") + "@cpuSamples=" + config, jfr));
        }
        cmd.addAll(List.of("-cp", settings.root().resolve("bench/target/lockscope-bench.jar").toString(),
                GroundTruthWorkload.class.getName()));
        List<String> args = workloadArgs(settings.smoke());
        cmd.addAll(args);
        try {
            MeasuredProcess p = MeasuredProcess.run(cmd, settings.work().resolve("owner-sampling.txt"));
            if (p.exitCode() != 0) {
                throw new IllegalStateException("exit " + p.exitCode() + ": " + p.output());
            }
            Matcher m = THROUGHPUT.matcher(p.output());
            if (!m.find()) {
                throw new IllegalStateException("no throughput in the workload's output");
            }
            double throughput = Double.parseDouble(m.group(1));
            double seconds = Double.parseDouble(args.get(args.size() - 1));
            double cpuPerOp = p.cpuNanos() / (throughput * seconds);
            List<Double> errors = new ArrayList<>();
            if (!config.equals(BARE)) {
                Map<String, GroundTruth.LockTruth> truth = GroundTruth.parse(p.output());
                Map<String, Set<String>> sites = new LinkedHashMap<>();
                truth.forEach((lock, t) -> sites.put(lock, new LinkedHashSet<>(t.ownerNanos().keySet())));
                Path json = settings.work().resolve("owner-sampling-report.json");
                MeasuredProcess report = MeasuredProcess.run(List.of(settings.java(), "-jar",
                        settings.root().resolve("cli/target/lockscope.jar").toString(), "report", jfr.toString(), "--format", "json",
                        "--instances", "-o", json.toString()), settings.work().resolve("owner-sampling-report.txt"));
                if (report.exitCode() != 0) {
                    throw new IllegalStateException("lockscope report: exit " + report.exitCode() + ": " + report.output());
                }
                Map<String, ToolReadings.Reading> readings = ToolReadings.fromLockscope(new ObjectMapper().readTree(json.toFile()), sites);
                for (AccuracyHarness.Measurement x : AccuracyHarness.measurements("owner-sampling", "lockscope", repeat, truth, readings)) {
                    if (x.kind() == AccuracyHarness.Kind.SHARE) {
                        errors.add(x.error());
                    }
                }
            }
            return new Run(config, repeat, errors, throughput, cpuPerOp);
        } finally {
            Files.deleteIfExists(jfr);
        }
    }

    /** Median of the absolute values, NaN without any. */
    static double medianAbs(List<Double> values) {
        return AccuracyHarness.median(values.stream().map(Math::abs).toList());
    }

    static String markdown(List<Run> runs, int repeats, List<String> failures, boolean smoke) {
        StringBuilder md = new StringBuilder("## Owner blame against the CPU sampling period\n\n");
        md.append("`GroundTruthWorkload ").append(String.join(" ", workloadArgs(smoke))).append("`: one `synchronized` lock held back ")
                .append("to back at two sites for 3:7 × 2 ms by 4 threads whose holders compute (no sleep, no I/O: what they do ")
                .append("while holding shows only in CPU samples), bare and under the agent's default mode at each `cpuSamples` ")
                .append("period, ").append(repeats).append(" repetition(s) interleaved. Owner-share error: |lockscope's share − the ")
                .append("workload's measured share| of each site, in percentage points, median (max) over the runs and both sites. ")
                .append("CPU per operation and throughput: medians, against the bare runs' medians.\n\n");
        md.append("| cpuSamples | owner-share error, median pp | max pp | throughput | vs bare | CPU per op | vs bare |\n");
        md.append("|---|---|---|---|---|---|---|\n");
        Map<String, List<Run>> byConfig = new LinkedHashMap<>();
        byConfig.put(BARE, new ArrayList<>());
        PERIODS.forEach(p -> byConfig.put(p, new ArrayList<>()));
        runs.forEach(r -> byConfig.computeIfAbsent(r.config(), k -> new ArrayList<>()).add(r));
        double bareThroughput = AccuracyHarness.median(byConfig.get(BARE).stream().map(Run::throughput).toList());
        double bareCpu = AccuracyHarness.median(byConfig.get(BARE).stream().map(Run::cpuNanosPerOp).toList());
        byConfig.forEach((config, mine) -> {
            if (mine.isEmpty()) {
                return;
            }
            List<Double> errors = mine.stream().flatMap(r -> r.shareErrors().stream()).toList();
            double throughput = AccuracyHarness.median(mine.stream().map(Run::throughput).toList());
            double cpu = AccuracyHarness.median(mine.stream().map(Run::cpuNanosPerOp).toList());
            boolean bare = config.equals(BARE);
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f ops/s | %s | %.2f ms | %s |%n", bare ? "bare" : config,
                    bare ? "" : String.format(Locale.ROOT, "%.1f", medianAbs(errors)),
                    bare ? "" : String.format(Locale.ROOT, "%.1f", errors.stream().mapToDouble(Math::abs).max().orElse(Double.NaN)),
                    throughput, bare ? "" : String.format(Locale.ROOT, "%+.1f%%", 100 * (throughput / bareThroughput - 1)),
                    cpu / 1e6, bare ? "" : String.format(Locale.ROOT, "%+.1f%%", 100 * (cpu / bareCpu - 1))));
        });
        if (!failures.isEmpty()) {
            md.append("\nFailed runs (left out above):\n\n");
            failures.forEach(f -> md.append("- ").append(f).append('\n'));
        }
        md.append("\n### Raw runs\n\n| cpuSamples | repeat | owner-share errors pp | throughput ops/s | CPU per op ms |\n|---|---|---|---|---|\n");
        for (Run r : runs) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %.1f | %.3f |%n", r.config(), r.repeat(),
                    String.join(", ", r.shareErrors().stream().map(e -> String.format(Locale.ROOT, "%+.1f", e)).toList()),
                    r.throughput(), r.cpuNanosPerOp() / 1e6));
        }
        return md.toString();
    }
}
