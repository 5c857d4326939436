package dev.lockscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockscope.sched.SchedCollector;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Measures what profiling costs: every workload runs in fresh JVMs under each configuration
 * (no profiler, lockscope, plain JFR with the same lock events, async-profiler's lock mode),
 * interleaved — one run of each configuration in turn, the order rotated every repetition — so
 * that drift of a shared, noisy machine hits all configurations alike. Writes a Markdown report
 * with the J9 park-contention report §4.2's statistics and every raw number.
 *
 * Run through {@link PerformanceReport}.
 */
public final class OverheadHarness {
    private static final Pattern THROUGHPUT = Pattern.compile("throughput: ([0-9.]+) ops/s");

    /**
     * Seconds of warm-up before measuring (JMH: iterations of 1 s). Long enough that the JIT work a
     * profiler adds at start-up (JFR's event writers, lockscope's hooks) is done before measuring on
     * 2 cores: the tables are about steady-state cost; start-up cost is not in them.
     */
    private static final String WARMUP_SECONDS = "3";
    /**
     * Jetty's warm-up: its throughput without a profiler went from 9-11k requests/s after 3 s to 23k after 30 s
     * ({@code LibraryWorkloads http-server 16 W 5}, W = 3 and 30, JDK 17, 2 cores; the other library workloads
     * are within a few percent of their 30 s throughput after 3 s, or fall as their table or file grows), so 3 s
     * measured the JIT's warm-up, with and without each profiler.
     */
    static final String HTTP_SERVER_WARMUP_SECONDS = "30";
    /**
     * The warm-up of the workloads that run few operations a second (the pool's 2,000, Derby's): their methods
     * reach the JIT's thresholds slowly, and under lockscope the C2 compiler still ran 0.45 s in the pool's
     * 4th second and 0.15 s in its 5th, inside a window that began after 3 s (`scripts/profile-agent.sh
     * --workload object-pool --warmup 3 --seconds 12 --skip 6 --jit`), charging that start-up JIT to the
     * window's 9,400 operations. From the 6th second on it ran tens of ms a second.
     */
    static final String LOW_RATE_WARMUP_SECONDS = "10";

    /** The configuration that also collects scheduling data for bottle graphs. */
    static final String SCHED = "lockscope+sched";

    private final BenchSettings settings;

    private OverheadHarness(BenchSettings settings) {
        this.settings = settings;
    }

    /**
     * A profiler configuration.
     *
     * @param agent for {@code --agent NAME=JAR[@OPTIONS]}: the agent jar and options; null for the built-in ones
     */
    record Config(String name, String description, String agent) {
        Config(String name, String description) {
            this(name, description, null);
        }
    }

    /**
     * A workload: the JVM arguments that run it, where its throughput comes from, and for how many
     * seconds it measured (operations = throughput × seconds, the denominator of CPU per operation).
     */
    record Workload(String name, String description, List<String> args, Path jmhResult, double measuredSeconds) {
    }

    /**
     * One measured run.
     *
     * @param cpuNanos    the process's CPU time (all threads, start-up and warm-up included, alike in
     *                    every configuration)
     * @param windowCores the process's CPU time per wall second while its throughput was measured
     *                    ({@link ProcessCpu}); NaN where the workload did not report it
     */
    record Run(String workload, String config, int repeat, double opsPerSecond, long peakRssBytes, long cpuNanos,
               double measuredSeconds, double windowCores) {
        /** Steady-state CPU nanoseconds per operation: the measured window's CPU over its operations; NaN if unknown. */
        double windowCpuNanosPerOp() {
            return windowCores * 1e9 / opsPerSecond;
        }

        /** The process's CPU seconds outside the measured window: JVM start, warm-up, a profiler's start-up, exit. */
        double cpuSecondsOutsideWindow() {
            return (cpuNanos - windowCores * 1e9 * measuredSeconds) / 1e9;
        }
    }

    /** The section of docs/PERFORMANCE.md: every workload under every configuration. */
    static String section(BenchSettings settings) throws Exception {
        OverheadHarness h = new OverheadHarness(settings);
        List<Run> runs = h.runAll(settings.smoke() ? 1 : settings.repeats());
        return h.markdown(runs, settings.smoke() ? 1 : settings.repeats());
    }

    List<Config> configs() {
        List<Config> all = Stream.of(
                new Config("none", "no profiler"),
                new Config("lockscope", "lockscope agent, defaults (threshold 0, parks under 300 µs sampled, CPU samples 20 ms)"),
                new Config(SCHED, "lockscope agent as above plus the bottle-graph scheduling collector "
                        + "(perf context switches, or the /proc sampler where perf is unavailable), as `record --sched`"),
                new Config("jfr", "JFR with the same JDK lock events at threshold 0 with stacks"),
                new Config("async-profiler", "async-profiler 4.2, event=lock (its defaults), JFR output"))
                .filter(c -> c.name().equals("none") || settings.keep(settings.configs(), c.name()))
                .collect(java.util.stream.Collectors.toCollection(ArrayList::new));
        settings.agents().forEach((name, jar) -> all.add(new Config(name, "lockscope agent " + jar.replace("@", " with options "), jar)));
        return all;
    }

    List<Workload> workloads() {
        double seconds = settings.smoke() ? 1 : 6;
        String measure = settings.smoke() ? "1" : "5";
        Path bench = settings.root().resolve("bench/target/lockscope-bench.jar");
        Path demo = settings.root().resolve("demo/target/lockscope-demo.jar");
        List<Workload> w = new ArrayList<>();
        w.add(new Workload("large-cs-juc", "J9 park-contention report §5.2, ReentrantLock, 16 threads", List.of("-jar", demo.toString(),
                "large-cs-juc", "--seconds", Double.toString(seconds)), null, seconds));
        w.add(new Workload("frequent-sync", "J9 park-contention report §5.3, synchronized, 16 threads", List.of("-jar", demo.toString(),
                "frequent-sync", "--seconds", Double.toString(seconds)), null, seconds));
        // parkOwnBlocker-tN: independent locks, one per thread, parked on and unparked by their own
        // thread: the agent's own scaling check (issue 14): its cost per park must not grow with threads
        for (String[] jmh : new String[][] {{"syncCounter", "4", "hot synchronized counter, 4 threads (JMH)"},
                {"lockCounter", "4", "hot ReentrantLock counter, 4 threads (JMH)"},
                {"uncontendedSync", "1", "uncontended synchronized method, 1 thread (JMH)"},
                {"parkOwnBlocker-t1", "1", "park/unpark on a thread's own blocker, 1 thread (JMH; the agent's scaling check)"},
                {"parkOwnBlocker-t2", "2", "the same, 2 threads, independent blockers"},
                {"parkOwnBlocker-t4", "4", "the same, 4 threads, independent blockers"},
                {"virtualHandoff", "1", "hand-off to a virtual thread and back: one mount per call (JMH; JDK 21+)"}}) {
            Path result = settings.work().resolve(jmh[0] + ".json");
            String benchmark = jmh[0].replaceFirst("-t[0-9]+$", "");
            int iterations = measure.equals("1") ? 1 : 3;
            int iterationSeconds = settings.smoke() ? 1 : 2;
            // jmh.ignoreLock: JMH refuses to start while another JMH holds /tmp/jmh.lock (another user's run)
            w.add(new Workload(jmh[0], jmh[2], List.of("-Djmh.ignoreLock=true", "-cp", bench.toString(), "org.openjdk.jmh.Main",
                    "LockMicroBenchmarks." + benchmark + "$", "-f", "0", "-prof", ProcessCpuProfiler.class.getName(), "-t", jmh[1], "-wi", settings.smoke() ? "1" : WARMUP_SECONDS, "-w", "1s",
                    "-i", Integer.toString(iterations), "-r", iterationSeconds + "s", "-rf", "json", "-rff", result.toString()), result,
                    iterations * iterationSeconds));
        }
        // name, threads, warm-up seconds, description
        for (String[] lib : new String[][] {{"queue-pipeline", "4", WARMUP_SECONDS, "ArrayBlockingQueue(64), 2 producers, 2 consumers"},
                {"h2", "8", WARMUP_SECONDS, "embedded H2 database, 8 threads inserting and querying one table"},
                {"logback", "8", WARMUP_SECONDS, "logback FileAppender, 8 threads logging to one file"},
                {"log4j2", "16", WARMUP_SECONDS, "log4j2 2.24 synchronous FileAppender, 16 threads logging to one file"},
                {"object-pool", "16", LOW_RATE_WARMUP_SECONDS, "commons-pool2 2.12 pool of 4 objects, 16 threads borrowing each for 2 ms"},
                {"http-server", "16", HTTP_SERVER_WARMUP_SECONDS, "Jetty 12 server, 16 loopback clients in a JVM of their own"},
                {"derby", "16", LOW_RATE_WARMUP_SECONDS, "embedded Derby 10.16, 16 threads updating 4 hot rows (row locks: Object.wait)"}}) {
            w.add(new Workload(lib[0], lib[3], List.of("-cp", bench.toString(), LibraryWorkloads.class.getName(),
                    lib[0], lib[1], settings.smoke() ? "0.5" : lib[2], measure), null, Double.parseDouble(measure)));
        }
        w.removeIf(x -> !settings.keep(settings.workloads(), x.name()));
        if (settings.smoke() && settings.workloads().isEmpty()) {
            w.removeIf(x -> !SMOKE_WORKLOADS.contains(x.name()));
        }
        // needs JDK 21+: only when asked for by name (--workloads virtualHandoff), not in the default set run on JDK 17
        w.removeIf(x -> x.name().equals("virtualHandoff") && !settings.workloads().contains(x.name()));
        return w;
    }

    List<Run> runAll(int repeats) throws Exception {
        List<Config> all = configs();
        List<Workload> workloads = workloads();
        List<Run> runs = new ArrayList<>();
        int total = 0;
        for (Workload w : workloads) {
            total += repeats * configsFor(w, all).size();
        }
        int done = 0;
        for (int r = 0; r < repeats; r++) {
            for (Workload w : workloads) {
                List<Config> configs = configsFor(w, all);
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
        cmd.add(settings.java());
        Path jfr = settings.work().resolve(w.name() + "-" + config.name() + "-" + repeat + ".jfr");
        Path sched = settings.work().resolve(w.name() + "-" + repeat + ".sched");
        cmd.addAll(config.agent() != null ? Profilers.agent(config.agent(), jfr)
                : Profilers.args(settings.root(), settings.work(), config.name().equals(SCHED) ? "lockscope" : config.name(), jfr));
        cmd.addAll(w.args());
        // The bottle-graph configuration starts the scheduling collector on the workload's pid, as
        // `lockscope record --sched` does; its CPU time (perf, or the /proc sampler) competes with the workload.
        MeasuredProcess p = config.name().equals(SCHED)
                ? MeasuredProcess.run(cmd, settings.work().resolve("out.txt"), pid -> SchedCollector.start(pid, sched))
                : MeasuredProcess.run(cmd, settings.work().resolve("out.txt"));
        double ops = Double.NaN;
        double cores = Double.NaN;
        if (p.exitCode() == 0) {
            if (w.jmhResult() != null) {
                JsonNode result = new ObjectMapper().readTree(w.jmhResult().toFile());
                ops = result.get(0).get("primaryMetric").get("score").asDouble();
                JsonNode cpu = result.get(0).path("secondaryMetrics").path(ProcessCpuProfiler.LABEL).path("score");
                cores = cpu.isNumber() ? cpu.asDouble() : Double.NaN;
            } else {
                Matcher m = THROUGHPUT.matcher(p.output());
                if (m.find()) {
                    ops = Double.parseDouble(m.group(1));
                }
                cores = ProcessCpu.coresIn(p.output());
            }
        }
        if (Double.isNaN(ops)) {
            System.err.println("bench: run failed (exit " + p.exitCode() + "): " + cmd + "\n" + p.tail());
            settings.failures().incrementAndGet();
        } else if (Double.isNaN(cores)) {
            System.err.println("bench: the run reported no process CPU for its measured window: " + cmd + "\n" + p.tail());
            settings.failures().incrementAndGet();
        }
        Files.deleteIfExists(jfr);
        Files.deleteIfExists(sched);
        return new Run(w.name(), config.name(), repeat, ops, p.peakRssBytes(), p.cpuNanos(), w.measuredSeconds(), cores);
    }

    /**
     * A smoke run proves the harness works within CI's time: each of {@link #SMOKE_WORKLOADS} bare and under lockscope, and
     * every other profiler on {@link #SMOKE_EVERY_CONFIG} only (a JMH workload and a plain one, the two ways a
     * profiler is attached); the tables show n/a for the rest. A full run measures every pair.
     */
    private List<Config> configsFor(Workload w, List<Config> all) {
        if (!settings.smoke() || SMOKE_EVERY_CONFIG.contains(w.name())) {
            return all;
        }
        return all.stream().filter(c -> c.name().equals("none") || c.name().equals("lockscope") || c.agent() != null).toList();
    }

    private static final java.util.Set<String> SMOKE_EVERY_CONFIG = java.util.Set.of("lockCounter", "queue-pipeline");

    /**
     * The workloads of a smoke run: one of each way a workload is run and read (a demo, a JMH benchmark, a library
     * workload, one whose warm-up is long for its low rate, the HTTP server with its client JVM); the others run
     * those same paths with other arguments, and the e2e tests run the library workloads under the agent.
     */
    private static final java.util.Set<String> SMOKE_WORKLOADS = java.util.Set.of("large-cs-juc", "lockCounter", "queue-pipeline",
            "derby", "http-server");

    String markdown(List<Run> runs, int repeats) {
        StringBuilder md = new StringBuilder();
        md.append("## Overhead\n\n");
        md.append("Every run is a fresh JVM; configurations take turns (order rotated each repetition), ")
                .append("each measured after ").append(settings.smoke() ? "up to 1" : WARMUP_SECONDS + " s (object-pool and derby: " + LOW_RATE_WARMUP_SECONDS
                        + " s, http-server: " + HTTP_SERVER_WARMUP_SECONDS + " s)")
                .append(" of warm-up (steady state; start-up JIT is not counted), ")
                .append(repeats).append(" repetition(s). Statistics as in the J9 park-contention report §4.2: mean µ, σ (population), ")
                .append("SE = σ/√N, RLE% = 100·SE/µ; throughput overhead = 1 − µ_mod/µ_base with the interval over ")
                .append("µ ± SE; the median overhead is 1 − median_mod/median_base. Peak RSS: the kernel's high-water mark (VmHWM of /proc/<pid>/status), polled every 50 ms. ")
                .append("CPU per operation (steady state): the process's user + system CPU time while its throughput was measured ")
                .append("(all threads; read by the workload itself, `getProcessCpuTime` at the window's ends, per JMH iteration for the JMH ")
                .append("workloads) divided by that window's operations. CPU outside the window: the process's whole CPU time ")
                .append("(/proc/<pid>/stat) less the window's: the JVM's start, the warm-up, a profiler's start-up and the exit, a cost ")
                .append("paid once per run (the J9 report's demos measure from their start, so theirs is the JVM's start and exit). ")
                .append("[95% CI] of a median is distribution-free (order statistics), so with 5 runs it spans them all. CPU per ")
                .append("operation separates configurations that throughput cannot on a machine with idle cores.\n\n");
        Map<String, List<Run>> byWorkload = new LinkedHashMap<>();
        for (Run r : runs) {
            byWorkload.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r);
        }
        List<Workload> workloads = workloads();
        md.append("### Summary: median throughput overhead (%)\n\n| workload |");
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
        md.append("\n### Summary: median CPU time per operation overhead, steady state (%)\n\n| workload |");
        configs().stream().skip(1).forEach(c -> md.append(' ').append(c.name()).append(" |"));
        md.append("\n|---|");
        configs().stream().skip(1).forEach(c -> md.append("---|"));
        md.append('\n');
        for (Workload w : workloads) {
            double base = Stats.of(perRun(byWorkload.get(w.name()), "none", Run::windowCpuNanosPerOp)).median();
            md.append("| ").append(w.name()).append(" |");
            configs().stream().skip(1).forEach(c -> md.append(' ')
                    .append(pct(Stats.of(perRun(byWorkload.get(w.name()), c.name(), Run::windowCpuNanosPerOp)).median() / base - 1)).append(" |"));
            md.append('\n');
        }
        md.append("\nPositive = more CPU per operation than no profiler.\n");
        for (Workload w : workloads) {
            String unsteady = unsteadyBare(byWorkload.get(w.name()));
            if (unsteady != null) {
                md.append("\n**").append(w.name()).append("**: ").append(unsteady).append('\n');
            }
        }
        pairedSummary(md, byWorkload, workloads);
        for (Workload w : workloads) {
            List<Run> rs = byWorkload.get(w.name());
            md.append("\n### ").append(w.name()).append(": ").append(w.description()).append("\n\n");
            md.append("| config | N | median ops/s [95% CI] | mean ops/s | SE | RLE% | overhead (median) | overhead (mean) [min, max] "
                    + "| CPU ns/op, steady state (median) [95% CI] | CPU/op overhead (median) | CPU s outside the window (median) "
                    + "| peak RSS MB | memory ratio [min, max] |\n");
            md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
            double baseCpu = Stats.of(perRun(rs, "none", Run::windowCpuNanosPerOp)).median();
            Stats base = stats(rs, "none", false);
            Stats baseMem = stats(rs, "none", true);
            for (Config c : configs()) {
                Stats s = stats(rs, c.name(), false);
                Stats mem = stats(rs, c.name(), true);
                double[] iv = Stats.throughputOverheadInterval(s, base);
                double[] mv = Stats.memoryOverheadInterval(mem, baseMem);
                double[] opsCi = dev.lockscope.analysis.stats.MedianInterval.of(values(rs, c.name(), false));
                List<Double> cpu = perRun(rs, c.name(), Run::windowCpuNanosPerOp);
                double[] cpuCi = dev.lockscope.analysis.stats.MedianInterval.of(cpu);
                double cpuMedian = Stats.of(cpu).median();
                double outside = Stats.of(perRun(rs, c.name(), Run::cpuSecondsOutsideWindow)).median();
                md.append(String.format(Locale.ROOT, "| %s | %d | %.1f [%.1f, %.1f] | %.1f | %.1f | %.2f | %s | %s [%s, %s] | %.1f [%.1f, %.1f] | %s | %.2f | %.0f | %.3f [%.3f, %.3f] |%n",
                        c.name(), s.n(), s.median(), opsCi[0], opsCi[1], s.mean(), s.standardError(), s.relativeStandardErrorPct(),
                        pct(Stats.medianThroughputOverhead(s, base)), pct(Stats.throughputOverhead(s, base)), pct(iv[0]), pct(iv[1]),
                        cpuMedian, cpuCi[0], cpuCi[1], pct(cpuMedian / baseCpu - 1), outside,
                        mem.mean() / 1e6, Stats.memoryOverhead(mem, baseMem), mv[0], mv[1]));
            }
        }
        md.append("\n### Configurations\n\n");
        for (Config c : configs()) {
            md.append("- `").append(c.name()).append("`: ").append(c.description()).append('\n');
        }
        md.append("\n### Raw runs\n\n| workload | config | repeat | ops/s | peak RSS bytes | CPU s | measured s | cores busy measuring |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (Run r : runs) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %d | %.3f | %d | %.2f | %.1f | %.3f |%n", r.workload(), r.config(), r.repeat(),
                    r.opsPerSecond(), r.peakRssBytes(), r.cpuNanos() / 1e9, r.measuredSeconds(), r.windowCores()));
        }
        return md.toString();
    }

    /**
     * The configuration every other is paired with: async-profiler where it runs (the peer issue 14 measures
     * against), else the first configuration that is not bare (compare-agents' {@code base=OLD.jar}); null
     * where there are not two to compare.
     */
    String pairingReference() {
        List<String> profiled = configs().stream().map(Config::name).filter(n -> !n.equals("none")).toList();
        if (profiled.size() < 2) {
            return null;
        }
        return profiled.contains("async-profiler") ? "async-profiler" : profiled.get(0);
    }

    /**
     * CPU per operation against the reference, paired by repetition. A repetition runs every configuration
     * once, one after another, so the two runs of a pair saw the same state of a shared machine; the ratio of
     * each pair cancels what drifted between repetitions, which the medians of the tables above do not.
     */
    private void pairedSummary(StringBuilder md, Map<String, List<Run>> byWorkload, List<Workload> workloads) {
        String reference = pairingReference();
        if (reference == null) {
            return;
        }
        List<Config> others = configs().stream().filter(c -> !c.name().equals("none") && !c.name().equals(reference)).toList();
        md.append("\n### Summary: CPU time per operation against ").append(reference).append(", paired by repetition (%)\n\n")
                .append("Per repetition, a configuration's CPU per operation over ").append(reference)
                .append("'s in the same repetition, less 1: the median of those ratios [the range of the middle ratios, a ")
                .append("distribution-free interval of the median; with N ≤ 6 ratios it is all of them and covers the ")
                .append("median with probability 1 − 2^(1−N): 75% at N = 3, 94% at N = 5]. An interval wholly above zero: ")
                .append("more CPU per operation than ").append(reference).append(", resolved; one that spans zero: no difference resolved.\n\n| workload |");
        others.forEach(c -> md.append(' ').append(c.name()).append(" |"));
        md.append("\n|---|");
        others.forEach(c -> md.append("---|"));
        md.append('\n');
        for (Workload w : workloads) {
            md.append("| ").append(w.name()).append(" |");
            for (Config c : others) {
                List<Double> ratios = pairedCpuRatios(byWorkload.get(w.name()), c.name(), reference);
                double[] ci = dev.lockscope.analysis.stats.MedianInterval.of(ratios);
                md.append(ratios.isEmpty() ? " n/a |" : " " + pct(Stats.of(ratios).median() - 1) + " [" + pct(ci[0] - 1)
                        + ", " + pct(ci[1] - 1) + "] |");
            }
            md.append('\n');
        }
        List<String> moved = new ArrayList<>();
        for (Workload w : workloads) {
            String why = referenceMoved(byWorkload.get(w.name()), reference);
            if (why != null) {
                moved.add("- " + w.name() + ": " + why);
            }
        }
        if (!moved.isEmpty()) {
            md.append("\nWhere ").append(reference).append(" itself changed how the program runs (its CPU per operation ")
                    .append("below the bare program's, or its throughput moved beyond the bare runs' spread), CPU per operation ")
                    .append("against it is not the cost of the other configurations:\n\n");
            moved.forEach(line -> md.append(line).append('\n'));
        }
    }

    /** Bare runs whose fastest is this many times the slowest did not see one steady machine. */
    static final double UNSTEADY_BARE = 1.5;

    /**
     * Why the bare runs of a workload say the machine was not steady, or null: the fastest at least {@value
     * #UNSTEADY_BARE} times the slowest. Then no median of that workload means much (Derby in one run, 2026-12-04:
     * 3,865 to 12,025 ops/s bare, the host busy), and a rerun is the answer.
     */
    static String unsteadyBare(List<Run> runs) {
        List<Double> bare = values(runs, "none", false);
        if (bare.size() < 2) {
            return null;
        }
        double min = java.util.Collections.min(bare);
        double max = java.util.Collections.max(bare);
        if (min <= 0 || max / min < UNSTEADY_BARE) {
            return null;
        }
        return String.format(Locale.ROOT, "its bare runs range from %.1f to %.1f ops/s (%.1f×): the machine was not steady "
                + "during them, so its medians and intervals say little; rerun it", min, max, max / min);
    }

    /**
     * Why CPU per operation against {@code reference} is not a comparison of cost on these runs, or null. Paired with
     * no profiler by repetition: its CPU per operation is below the bare program's (an interval wholly below: a
     * profiler adds work, so it must have changed how the program runs), or its throughput differs by more than the
     * bare runs' own spread ((max − min) / median) with an interval that leaves 1 out. On JDK 25, async-profiler's
     * monitor callbacks took a fifth off log4j2's throughput and a quarter to a half of its CPU per operation (its 16
     * threads spun less on the appender's monitor), so every other configuration read far "above" it.
     */
    static String referenceMoved(List<Run> runs, String reference) {
        List<Double> bare = values(runs, "none", false);
        List<Double> cpu = pairedCpuRatios(runs, reference, "none");
        if (cpu.size() >= 2) {
            double[] ci = dev.lockscope.analysis.stats.MedianInterval.of(cpu);
            if (ci[1] < 1) {
                return reference + "'s CPU per operation " + pct(Stats.of(cpu).median() - 1) + " [" + pct(ci[0] - 1) + ", "
                        + pct(ci[1] - 1) + "] against no profiler, paired: below the program's own";
            }
        }
        List<Double> ratios = pairedRatios(runs, reference, "none", Run::opsPerSecond);
        if (bare.size() < 2 || ratios.size() < 2) {
            return null;
        }
        double spread = (java.util.Collections.max(bare) - java.util.Collections.min(bare)) / Stats.of(bare).median();
        double median = Stats.of(ratios).median();
        double[] ci = dev.lockscope.analysis.stats.MedianInterval.of(ratios);
        if (!(ci[1] < 1 || ci[0] > 1) || Math.abs(median - 1) <= spread) {
            return null;
        }
        return reference + "'s throughput " + pct(median - 1) + " [" + pct(ci[0] - 1) + ", " + pct(ci[1] - 1)
                + "] against no profiler, paired, beyond the bare runs' spread of " + String.format(Locale.ROOT, "%.1f%%", spread * 100);
    }

    /**
     * For each repetition in which both ran and read their CPU time, {@code config}'s steady-state CPU per
     * operation over {@code reference}'s.
     */
    static List<Double> pairedCpuRatios(List<Run> runs, String config, String reference) {
        return pairedRatios(runs, config, reference, r -> readItsCpu(r) ? r.windowCpuNanosPerOp() : Double.NaN);
    }

    /** For each repetition in which both have a {@code metric} (not NaN), {@code config}'s over {@code reference}'s. */
    private static List<Double> pairedRatios(List<Run> runs, String config, String reference,
                                             java.util.function.ToDoubleFunction<Run> metric) {
        Map<Integer, Double> ofReference = new java.util.HashMap<>();
        Map<Integer, Double> ofConfig = new java.util.TreeMap<>();
        for (Run r : runs) {
            double value = metric.applyAsDouble(r);
            if (!Double.isNaN(value)) {
                if (r.config().equals(reference)) {
                    ofReference.put(r.repeat(), value);
                } else if (r.config().equals(config)) {
                    ofConfig.put(r.repeat(), value);
                }
            }
        }
        List<Double> ratios = new ArrayList<>();
        ofConfig.forEach((repeat, value) -> {
            Double ref = ofReference.get(repeat);
            if (ref != null && ref > 0) {
                ratios.add(value / ref);
            }
        });
        return ratios;
    }

    /** A run that measured its throughput and read the process's CPU time. */
    private static boolean readItsCpu(Run r) {
        return !Double.isNaN(r.opsPerSecond()) && r.cpuNanos() > 0;
    }

    private static Stats stats(List<Run> runs, String config, boolean memory) {
        return Stats.of(values(runs, config, memory));
    }

    private static List<Double> values(List<Run> runs, String config, boolean memory) {
        List<Double> v = new ArrayList<>();
        for (Run r : runs) {
            if (r.config().equals(config) && !Double.isNaN(r.opsPerSecond())) {
                v.add(memory ? (double) r.peakRssBytes() : r.opsPerSecond());
            }
        }
        return v;
    }

    /** A CPU figure of each run of {@code config} that measured and read its CPU time (NaN figures left out). */
    private static List<Double> perRun(List<Run> runs, String config, java.util.function.ToDoubleFunction<Run> figure) {
        List<Double> v = new ArrayList<>();
        for (Run r : runs) {
            if (r.config().equals(config) && readItsCpu(r)) {
                double x = figure.applyAsDouble(r);
                if (!Double.isNaN(x)) {
                    v.add(x);
                }
            }
        }
        return v;
    }

    private static String pct(double fraction) {
        return Double.isNaN(fraction) ? "n/a" : String.format(Locale.ROOT, "%+.2f%%", 100 * fraction);
    }
}
