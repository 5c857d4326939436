package dev.lockscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Measures what profiling costs: every workload runs in fresh JVMs under each configuration
 * (no profiler, lockscope, plain JFR with the same lock events, async-profiler's lock mode),
 * interleaved — one run of each configuration in turn, the order rotated every repetition — so
 * that drift of a shared, noisy machine hits all configurations alike. Writes a Markdown report
 * with seed 000 §4.2's statistics and every raw number.
 *
 * <pre>java -jar bench/target/lockscope-bench.jar [--repeats N] [--smoke] [--out FILE] [--root DIR]
 *     [--workloads a,b] [--configs x,y]</pre>
 * ({@code --workloads}/{@code --configs} keep only the named ones; {@code none} is always kept).
 */
public final class OverheadHarness {
    private static final Pattern THROUGHPUT = Pattern.compile("throughput: ([0-9.]+) ops/s");

    private final Path root;
    private final Path work;
    private final String java;
    private final boolean smoke;
    /** Names to keep, or null for all. */
    private Set<String> onlyWorkloads;
    private Set<String> onlyConfigs;

    private OverheadHarness(Path root, String java, boolean smoke) throws IOException {
        this.root = root;
        this.java = java;
        this.smoke = smoke;
        this.work = Files.createTempDirectory("lockscope-bench");
    }

    /** A profiler configuration: the JVM arguments it adds, given a scratch recording path. */
    record Config(String name, String description) {
    }

    /** A workload: the JVM arguments that run it, and where its throughput comes from. */
    record Workload(String name, String description, List<String> args, Path jmhResult) {
    }

    /** One measured run. */
    record Run(String workload, String config, int repeat, double opsPerSecond, long peakRssBytes) {
    }

    public static void main(String[] args) throws Exception {
        int repeats = 5;
        boolean smoke = false;
        Path out = Path.of("docs/PERFORMANCE.md");
        Path root = Path.of(".");
        Set<String> onlyWorkloads = null;
        Set<String> onlyConfigs = null;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--repeats" -> repeats = Integer.parseInt(args[++i]);
                case "--smoke" -> smoke = true;
                case "--out" -> out = Path.of(args[++i]);
                case "--root" -> root = Path.of(args[++i]);
                case "--java" -> java = args[++i];
                case "--workloads" -> onlyWorkloads = Set.of(args[++i].split(","));
                case "--configs" -> onlyConfigs = Set.of(args[++i].split(","));
                default -> {
                    System.err.println("usage: OverheadHarness [--repeats N] [--smoke] [--out FILE] [--root DIR] [--java PATH]"
                            + " [--workloads a,b] [--configs x,y]");
                    System.exit(2);
                }
            }
        }
        if (smoke) {
            repeats = Math.min(repeats, 1);
        }
        OverheadHarness h = new OverheadHarness(root.toAbsolutePath().normalize(), java, smoke);
        h.onlyWorkloads = onlyWorkloads;
        h.onlyConfigs = onlyConfigs;
        List<Run> runs = h.runAll(repeats);
        String report = h.markdown(runs, repeats, String.join(" ", args));
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report);
        System.err.println("bench: wrote " + out);
    }

    List<Config> configs() {
        return Stream.of(
                new Config("none", "no profiler"),
                new Config("lockscope", "lockscope agent, defaults (threshold 0, CPU samples 20 ms)"),
                new Config("jfr", "JFR with the same JDK lock events at threshold 0 with stacks"),
                new Config("async-profiler", "async-profiler 4.2, event=lock (its defaults), JFR output"))
                .filter(c -> onlyConfigs == null || c.name().equals("none") || onlyConfigs.contains(c.name())).toList();
    }

    List<Workload> workloads() {
        double seconds = smoke ? 1 : 6;
        String measure = smoke ? "1" : "5";
        Path bench = root.resolve("bench/target/lockscope-bench.jar");
        Path demo = root.resolve("demo/target/lockscope-demo.jar");
        List<Workload> w = new ArrayList<>();
        w.add(new Workload("large-cs-juc", "seed 000 §5.2, ReentrantLock, 16 threads", List.of("-jar", demo.toString(),
                "large-cs-juc", "--seconds", Double.toString(seconds)), null));
        w.add(new Workload("frequent-sync", "seed 000 §5.3, synchronized, 16 threads", List.of("-jar", demo.toString(),
                "frequent-sync", "--seconds", Double.toString(seconds)), null));
        for (String[] jmh : new String[][] {{"syncCounter", "4", "hot synchronized counter, 4 threads (JMH)"},
                {"lockCounter", "4", "hot ReentrantLock counter, 4 threads (JMH)"},
                {"uncontendedSync", "1", "uncontended synchronized method, 1 thread (JMH)"}}) {
            Path result = work.resolve(jmh[0] + ".json");
            w.add(new Workload(jmh[0], jmh[2], List.of("-cp", bench.toString(), "org.openjdk.jmh.Main",
                    "LockMicroBenchmarks." + jmh[0] + "$", "-f", "0", "-t", jmh[1], "-wi", "1", "-w", "1s",
                    "-i", measure.equals("1") ? "1" : "3", "-r", smoke ? "1s" : "2s", "-rf", "json", "-rff", result.toString()), result));
        }
        for (String[] lib : new String[][] {{"queue-pipeline", "4", "ArrayBlockingQueue(64), 2 producers, 2 consumers"},
                {"h2", "8", "embedded H2 database, 8 threads inserting and querying one table"},
                {"logback", "8", "logback FileAppender, 8 threads logging to one file"}}) {
            w.add(new Workload(lib[0], lib[2], List.of("-cp", bench.toString(), LibraryWorkloads.class.getName(),
                    lib[0], lib[1], smoke ? "0.5" : "1", measure), null));
        }
        w.removeIf(x -> onlyWorkloads != null && !onlyWorkloads.contains(x.name()));
        return w;
    }

    List<Run> runAll(int repeats) throws Exception {
        List<Config> configs = configs();
        List<Workload> workloads = workloads();
        List<Run> runs = new ArrayList<>();
        int total = repeats * configs.size() * workloads.size();
        int done = 0;
        for (int r = 0; r < repeats; r++) {
            for (Workload w : workloads) {
                for (int c = 0; c < configs.size(); c++) {
                    Config config = configs.get((c + r) % configs.size()); // rotate the order each repetition
                    done++;
                    System.err.printf(Locale.ROOT, "bench: [%d/%d] %s under %s%n", done, total, w.name(), config.name());
                    runs.add(runOnce(w, config, r));
                }
            }
        }
        return runs;
    }

    private Run runOnce(Workload w, Config config, int repeat) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        Path jfr = work.resolve(w.name() + "-" + config.name() + "-" + repeat + ".jfr");
        cmd.addAll(profilerArgs(config, jfr));
        cmd.addAll(w.args());
        Path log = work.resolve("out.txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long peak = 0;
        Path statm = Path.of("/proc", Long.toString(p.pid()), "statm");
        while (!p.waitFor(50, TimeUnit.MILLISECONDS)) {
            try {
                String[] f = Files.readString(statm).trim().split("\\s+");
                peak = Math.max(peak, Long.parseLong(f[1]) * 4096);
            } catch (IOException | RuntimeException ignored) {
                // the process may have just exited
            }
        }
        String output = Files.readString(log);
        double ops = Double.NaN;
        if (p.exitValue() == 0) {
            if (w.jmhResult() != null) {
                JsonNode result = new ObjectMapper().readTree(w.jmhResult().toFile());
                ops = result.get(0).get("primaryMetric").get("score").asDouble();
            } else {
                Matcher m = THROUGHPUT.matcher(output);
                if (m.find()) {
                    ops = Double.parseDouble(m.group(1));
                }
            }
        }
        if (Double.isNaN(ops)) {
            System.err.println("bench: run failed (exit " + p.exitValue() + "): " + cmd + "\n" + tail(output));
        }
        Files.deleteIfExists(jfr);
        return new Run(w.name(), config.name(), repeat, ops, peak);
    }

    private List<String> profilerArgs(Config config, Path jfr) throws IOException {
        return switch (config.name()) {
            case "none" -> List.of();
            case "lockscope" -> List.of("-javaagent:" + root.resolve("agent/target/lockscope-agent.jar")
                    + "=file=" + jfr + ",report=off,quiet");
            case "jfr" -> List.of("-XX:StartFlightRecording=filename=" + jfr + ",settings=" + resource("lock-events.jfc"));
            case "async-profiler" -> List.of("-agentpath:" + asyncProfilerLibrary() + "=start,event=lock,jfr,file=" + jfr);
            default -> throw new IllegalArgumentException(config.name());
        };
    }

    private Path resource(String name) throws IOException {
        Path target = work.resolve(name);
        if (!Files.exists(target)) {
            try (InputStream in = OverheadHarness.class.getResourceAsStream("/" + name)) {
                Files.copy(in, target);
            }
        }
        return target;
    }

    private Path asyncProfilerLibrary() throws IOException {
        Path lib = work.resolve("libasyncProfiler.so");
        if (!Files.exists(lib)) {
            try (ZipFile zip = new ZipFile(root.resolve("bench/target/async-profiler.jar").toFile())) {
                ZipEntry e = zip.getEntry("linux-x64/libasyncProfiler.so");
                try (InputStream in = zip.getInputStream(e)) {
                    Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return lib;
    }

    private static String tail(String s) {
        return s.length() <= 2000 ? s : s.substring(s.length() - 2000);
    }

    String markdown(List<Run> runs, int repeats, String args) throws Exception {
        StringBuilder md = new StringBuilder();
        md.append("# lockscope overhead\n\n");
        md.append("Generated by `scripts/bench-overhead.sh").append(args.isBlank() ? "" : " " + args).append("` on ")
                .append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append(".\n\n");
        md.append("- Machine: ").append(machine()).append("\n");
        md.append("- JDK: ").append(javaVersion()).append("\n");
        md.append("- Method: every run is a fresh JVM; configurations take turns (order rotated each repetition), ")
                .append(repeats).append(" repetition(s). Statistics as in seed 000 §4.2: mean µ, σ (population), ")
                .append("SE = σ/√N, RLE% = 100·SE/µ; throughput overhead = 1 − µ_mod/µ_base with the interval over ")
                .append("µ ± SE; the median overhead is 1 − median_mod/median_base. Peak RSS polled from /proc/<pid>/statm every 50 ms.\n\n");
        Map<String, List<Run>> byWorkload = new LinkedHashMap<>();
        for (Run r : runs) {
            byWorkload.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r);
        }
        List<Workload> workloads = workloads();
        md.append("## Summary: median throughput overhead (%)\n\n| workload |");
        for (Config c : configs()) {
            if (!c.name().equals("none")) {
                md.append(' ').append(c.name()).append(" |");
            }
        }
        md.append("\n|---|");
        configs().stream().skip(1).forEach(c -> md.append("---|"));
        md.append('\n');
        for (Workload w : workloads) {
            Stats base = stats(byWorkload.get(w.name()), "none", false);
            md.append("| ").append(w.name()).append(" |");
            for (Config c : configs()) {
                if (!c.name().equals("none")) {
                    md.append(' ').append(pct(Stats.medianThroughputOverhead(stats(byWorkload.get(w.name()), c.name(), false), base))).append(" |");
                }
            }
            md.append('\n');
        }
        md.append("\nPositive = slower than no profiler. Differences within the RLE of the baseline are noise.\n");
        for (Workload w : workloads) {
            List<Run> rs = byWorkload.get(w.name());
            md.append("\n## ").append(w.name()).append(": ").append(w.description()).append("\n\n");
            md.append("| config | N | median ops/s | mean ops/s | SE | RLE% | overhead (median) | overhead (mean) [min, max] | peak RSS MB | memory ratio [min, max] |\n");
            md.append("|---|---|---|---|---|---|---|---|---|---|\n");
            Stats base = stats(rs, "none", false);
            Stats baseMem = stats(rs, "none", true);
            for (Config c : configs()) {
                Stats s = stats(rs, c.name(), false);
                Stats mem = stats(rs, c.name(), true);
                double[] iv = Stats.throughputOverheadInterval(s, base);
                double[] mv = Stats.memoryOverheadInterval(mem, baseMem);
                md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %.2f | %s | %s [%s, %s] | %.0f | %.3f [%.3f, %.3f] |%n",
                        c.name(), s.n(), s.median(), s.mean(), s.standardError(), s.relativeStandardErrorPct(),
                        pct(Stats.medianThroughputOverhead(s, base)), pct(Stats.throughputOverhead(s, base)), pct(iv[0]), pct(iv[1]),
                        mem.mean() / 1e6, Stats.memoryOverhead(mem, baseMem), mv[0], mv[1]));
            }
        }
        md.append("\n## Configurations\n\n");
        for (Config c : configs()) {
            md.append("- `").append(c.name()).append("`: ").append(c.description()).append('\n');
        }
        md.append("\n## Raw runs\n\n| workload | config | repeat | ops/s | peak RSS bytes |\n|---|---|---|---|---|\n");
        for (Run r : runs) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %d | %.3f | %d |%n", r.workload(), r.config(), r.repeat(), r.opsPerSecond(), r.peakRssBytes()));
        }
        return md.toString();
    }

    private static Stats stats(List<Run> runs, String config, boolean memory) {
        List<Double> v = new ArrayList<>();
        for (Run r : runs) {
            if (r.config().equals(config) && !Double.isNaN(r.opsPerSecond())) {
                v.add(memory ? (double) r.peakRssBytes() : r.opsPerSecond());
            }
        }
        return Stats.of(v);
    }

    private static String pct(double fraction) {
        return Double.isNaN(fraction) ? "n/a" : String.format(Locale.ROOT, "%+.2f%%", 100 * fraction);
    }

    private static String machine() {
        String cpu = "?";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("?");
        } catch (IOException ignored) {
            // keep "?"
        }
        return Runtime.getRuntime().availableProcessors() + " CPUs (" + cpu + "), "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MB max heap of the harness JVM; "
                + "the machine is shared, so absolute numbers vary between runs";
    }

    private String javaVersion() throws Exception {
        Process p = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
        String v = new String(p.getInputStream().readAllBytes()).lines().findFirst().orElse("?");
        p.waitFor();
        return v + " (" + java + ")";
    }
}
