package dev.lockscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * How right the numbers are: runs {@link GroundTruthWorkload}s, which time every acquisition themselves,
 * in fresh JVMs under lockscope, plain JFR (the same JDK lock events at threshold 0) and async-profiler's
 * lock mode, and compares what each tool reports (wait total per lock, mean hold time, share of the waiting
 * caused by each owner call site) with the workload's own measurement of the same run. Writes one Markdown
 * section, {@code ## Accuracy}, for docs/PERFORMANCE.md.
 *
 * Run through {@link PerformanceReport}.
 */
public final class AccuracyHarness {
    static final List<String> TOOLS = List.of("lockscope", "jfr", "async-profiler");

    /** What a metric measures: its unit and how its error is stated. */
    enum Kind {
        /** Nanoseconds, shown in ms; error relative, in %. */
        WAIT,
        /** Nanoseconds, shown in ms; error relative, in %. */
        HOLD,
        /** A fraction, shown in %; error absolute, in percentage points. */
        SHARE
    }

    /** One number of one run: the workload's own measurement and what the tool reported (NaN: not reported). */
    record Measurement(String workload, String lock, String metric, Kind kind, String tool, int repeat, double truth, double reported) {
        /** Relative error in % for times, percentage points for shares; NaN when either side is missing. */
        double error() {
            return kind == Kind.SHARE ? errorPoints(truth, reported) : errorPct(truth, reported);
        }
    }

    /** A ground-truth workload: its name, description and {@link GroundTruthWorkload} arguments. */
    record Workload(String name, String description, List<String> args) {
    }

    private final Path root;
    private final Path work;
    private final String java;
    private final boolean smoke;
    private final List<String> failures = new ArrayList<>();

    private AccuracyHarness(Path root, String java, boolean smoke, Path work) {
        this.root = root;
        this.java = java;
        this.smoke = smoke;
        this.work = work;
        this.workloads = allWorkloads();
    }

    /** The section of docs/PERFORMANCE.md: every ground-truth workload under every tool. */
    static String section(BenchSettings settings) throws Exception {
        AccuracyHarness h = new AccuracyHarness(settings.root(), settings.java(), settings.smoke(), settings.work());
        h.workloads.removeIf(w -> !settings.keep(settings.workloads(), w.name()));
        int repeats = settings.smoke() ? 1 : Math.min(settings.repeats(), 3);
        List<Measurement> ms = h.runAll(repeats);
        settings.failures().addAndGet(h.failures.size());
        return markdown(h.workloads(), ms, repeats, h.failures);
    }

    /** What this run measures: every ground-truth workload, or those {@code --workloads} names. */
    private final List<Workload> workloads;

    List<Workload> workloads() {
        return workloads;
    }

    private List<Workload> allWorkloads() {
        String seconds = smoke ? "1" : "5";
        List<Workload> w = new ArrayList<>();
        for (String kind : List.of("juc", "sync")) {
            String what = kind.equals("juc") ? "ReentrantLock" : "synchronized";
            w.add(new Workload("two-sites-" + kind, what + ", 4 threads, one lock: site A holds it 9 ms, site B 1 ms, in turn",
                    List.of("two-sites", kind, "--seconds", seconds)));
            w.add(new Workload("frequent-" + kind, what + ", 8 threads, J9 park-contention report §5.3: locks `frequent` (p 0.75) and `rare`, 32 ms holds",
                    List.of("frequent", kind, "--seconds", seconds)));
        }
        // issue 16: holding sites back to back, no pause between a release and the next acquisition
        for (String kind : List.of("juc", "sync")) {
            String what = kind.equals("juc") ? "ReentrantLock" : "synchronized";
            for (String threads : List.of("4", "16")) {
                for (String split : List.of("3:7", "1:9", "1:1:1")) {
                    String unit = split.equals("1:1:1") ? "3" : "1";
                    w.add(new Workload("split-" + split.replace(':', '-') + "-t" + threads + "-" + kind,
                            what + ", " + threads + " threads, one lock held back to back at sites A, B" + (split.equals("1:1:1") ? ", C" : "")
                                    + " for " + split + " × " + unit + " ms, no pause between a release and the next acquisition",
                            List.of("split", kind, "--threads", threads, "--split", split, "--unit-ms", unit,
                                    "--seconds", smoke ? "1" : "3")));
                }
            }
        }
        return w;
    }

    List<Measurement> runAll(int repeats) throws Exception {
        List<Workload> workloads = workloads();
        List<Measurement> out = new ArrayList<>();
        int total = repeats * workloads.size() * TOOLS.size();
        int done = 0;
        for (int r = 0; r < repeats; r++) {
            for (Workload w : workloads) {
                for (int t = 0; t < TOOLS.size(); t++) {
                    String tool = TOOLS.get((t + r) % TOOLS.size()); // rotate the order each repetition
                    done++;
                    System.err.printf(Locale.ROOT, "accuracy: [%d/%d] %s under %s%n", done, total, w.name(), tool);
                    out.addAll(runOnce(w, tool, r));
                }
            }
        }
        return out;
    }

    private List<Measurement> runOnce(Workload w, String tool, int repeat) throws Exception {
        Path jfr = work.resolve(w.name() + "-" + tool + "-" + repeat + ".jfr");
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(Profilers.args(root, work, tool, jfr));
        cmd.addAll(List.of("-cp", root.resolve("bench/target/lockscope-bench.jar").toString(), GroundTruthWorkload.class.getName()));
        cmd.addAll(w.args());
        try {
            String output = exec(cmd);
            Map<String, GroundTruth.LockTruth> truth = GroundTruth.parse(output);
            if (truth.isEmpty()) {
                throw new IllegalStateException("no truth lines in the workload's output:\n" + tail(output));
            }
            Map<String, Set<String>> sites = new LinkedHashMap<>();
            truth.forEach((lock, t) -> sites.put(lock, new LinkedHashSet<>(t.ownerNanos().keySet())));
            Map<String, ToolReadings.Reading> readings;
            if (tool.equals("lockscope")) {
                String json = exec(List.of(java, "-jar", root.resolve("cli/target/lockscope.jar").toString(), "report",
                        jfr.toString(), "--format", "json", "--instances")); // per object: the workload's two locks share one lock site (hold)
                readings = ToolReadings.fromLockscope(new ObjectMapper().readTree(json), sites);
            } else {
                readings = ToolReadings.fromLockEvents(ToolReadings.readJfr(jfr), sites);
            }
            return measurements(w.name(), tool, repeat, truth, readings);
        } catch (Exception e) {
            String msg = w.name() + " under " + tool + " (repeat " + repeat + "): " + e.getMessage();
            System.err.println("accuracy: run failed: " + msg);
            failures.add(msg.lines().findFirst().orElse(msg));
            return List.of();
        } finally {
            Files.deleteIfExists(jfr);
        }
    }

    /** Runs a command, returns its stdout; fails on a non-zero exit. */
    private String exec(List<String> cmd) throws Exception {
        Path out = work.resolve("stdout.txt");
        Path err = work.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + cmd);
        }
        String output = Files.readString(out);
        if (p.exitValue() != 0) {
            throw new IllegalStateException("exit " + p.exitValue() + ": " + cmd + "\n" + tail(output + Files.readString(err)));
        }
        return output;
    }

    private static String tail(String s) {
        return s.length() <= 2000 ? s : s.substring(s.length() - 2000);
    }

    /**
     * The numbers of one run: per lock, wait total and mean hold; per call site of a lock taken at more than
     * one site, the share of the waiting it caused as an owner.
     */
    static List<Measurement> measurements(String workload, String tool, int repeat, Map<String, GroundTruth.LockTruth> truth,
                                          Map<String, ToolReadings.Reading> readings) {
        List<Measurement> out = new ArrayList<>();
        truth.forEach((lock, t) -> {
            ToolReadings.Reading r = readings.get(lock);
            double wait = r == null ? Double.NaN : r.waitNanos();
            double hold = r == null ? Double.NaN : r.meanHoldNanos();
            out.add(new Measurement(workload, lock, "wait total", Kind.WAIT, tool, repeat, t.waitNanos(), wait));
            out.add(new Measurement(workload, lock, "mean hold", Kind.HOLD, tool, repeat, t.meanHoldNanos(), hold));
            double handoffHold = r == null ? Double.NaN : r.handoffHoldNanos();
            out.add(new Measurement(workload, lock, "hold from hand-offs", Kind.HOLD, tool, repeat, t.meanHoldNanos(), handoffHold));
            if (t.ownerNanos().size() > 1) {
                for (String site : new java.util.TreeSet<>(t.ownerNanos().keySet())) {
                    double share = r == null ? Double.NaN : r.ownerShares().getOrDefault(site, Double.NaN);
                    out.add(new Measurement(workload, lock, "owner share " + site, Kind.SHARE, tool, repeat, t.ownerShare(site), share));
                }
            }
        });
        return out;
    }

    /** Whether a tool can report a kind of metric at all (JFR and async-profiler record waits only). */
    static boolean supports(String tool, Kind kind) {
        return tool.equals("lockscope") || kind == Kind.WAIT;
    }

    static double errorPct(double truth, double reported) {
        if (Double.isNaN(truth) || Double.isNaN(reported) || truth == 0) {
            return Double.NaN;
        }
        return 100 * (reported - truth) / truth;
    }

    static double errorPoints(double truth, double reported) {
        return Double.isNaN(truth) || Double.isNaN(reported) ? Double.NaN : 100 * (reported - truth);
    }

    /** Median of the non-NaN values; NaN if there are none. */
    static double median(List<Double> values) {
        List<Double> v = values.stream().filter(d -> !Double.isNaN(d)).toList();
        return v.isEmpty() ? Double.NaN : Stats.of(v).median();
    }

    static String value(Kind kind, double v) {
        if (Double.isNaN(v)) {
            return "none";
        }
        return switch (kind) {
            case WAIT -> String.format(Locale.ROOT, "%.1f ms", v / 1e6);
            case HOLD -> String.format(Locale.ROOT, "%.2f ms", v / 1e6);
            case SHARE -> String.format(Locale.ROOT, "%.1f%%", 100 * v);
        };
    }

    static String error(Kind kind, double e) {
        if (Double.isNaN(e)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, kind == Kind.SHARE ? "%+.1f pp" : "%+.1f%%", e);
    }

    static String notAvailable(Kind kind) {
        return kind == Kind.SHARE ? "n/a (no owner information)" : "n/a (no hold-time estimate)";
    }

    static String toolTitle(String tool) {
        return switch (tool) {
            case "jfr" -> "JFR";
            default -> tool;
        };
    }

    /** The whole section. */
    static String markdown(List<Workload> workloads, List<Measurement> ms, int repeats, List<String> failures) {
        StringBuilder md = new StringBuilder();
        md.append("## Accuracy\n\n");
        md.append("- Method: each workload measures its own truth with `System.nanoTime()` around every acquisition ")
                .append("(request, acquired, release; `GroundTruthWorkload`), independently of any profiler, and runs in a fresh JVM ")
                .append("under each tool in turn (order rotated each repetition), ").append(repeats)
                .append(" repetition(s). Every error compares a tool with the truth of the same run; the table shows medians over ")
                .append("the repetitions: per tool, the true value measured in that tool's runs (a profiler changes the timing, and so the ")
                .append("truth, a little), the value the tool reported and the error, each the median over the runs (the error is the median ")
                .append("of the per-run errors).\n");
        md.append("- Errors: times relative, `100·(reported − true)/true` %; owner shares absolute, in percentage points (pp).\n\n");
        md.append("| workload | lock | metric |");
        TOOLS.forEach(t -> md.append(" true (").append(toolTitle(t)).append(" runs) | ").append(toolTitle(t)).append(" | error |"));
        md.append("\n|---|---|---|");
        TOOLS.forEach(t -> md.append("---|---|---|"));
        md.append('\n');
        Map<String, List<Measurement>> rows = new LinkedHashMap<>();
        for (Measurement m : ms) {
            rows.computeIfAbsent(m.workload() + "\u0000" + m.lock() + "\u0000" + m.metric(), k -> new ArrayList<>()).add(m);
        }
        for (List<Measurement> row : rows.values()) {
            Measurement first = row.get(0);
            Kind kind = first.kind();
            md.append("| ").append(first.workload()).append(" | ").append(first.lock()).append(" | ").append(first.metric()).append(" |");
            for (String tool : TOOLS) {
                List<Measurement> mine = row.stream().filter(m -> m.tool().equals(tool)).toList();
                if (mine.isEmpty()) {
                    md.append(" no run | | |");
                    continue;
                }
                md.append(' ').append(value(kind, median(mine.stream().map(Measurement::truth).toList()))).append(" |");
                if (!supports(tool, kind)) {
                    md.append(' ').append(notAvailable(kind)).append(" | |");
                } else {
                    md.append(' ').append(value(kind, median(mine.stream().map(Measurement::reported).toList())))
                            .append(" | ").append(error(kind, median(mine.stream().map(Measurement::error).toList()))).append(" |");
                }
            }
            md.append('\n');
        }
        if (!failures.isEmpty()) {
            md.append("\nFailed runs (left out above):\n\n");
            failures.forEach(f -> md.append("- ").append(f).append('\n'));
        }
        md.append("\nWorkloads (`java -cp bench/target/lockscope-bench.jar dev.lockscope.bench.GroundTruthWorkload <shape> <juc|sync> [options]`):\n\n");
        for (Workload w : workloads) {
            md.append("- `").append(w.name()).append("`: ").append(w.description()).append('\n');
        }
        md.append("""

                What is compared:

                - **wait total**: true = Σ (acquired − request) over all acquisitions of the lock. lockscope: `totalWaitNanos`
                  of the lock in `lockscope report --format json`; JFR: Σ durations of `jdk.ThreadPark` / `jdk.JavaMonitorEnter`
                  events on the lock (recorded with the same settings lockscope uses, threshold 0); async-profiler 4.2
                  (`event=lock`, its defaults, JFR output): Σ durations of the lock events it wrote. async-profiler *samples*:
                  an event is written when the accumulated contended time overflows its `lock` interval (default 10 µs), so
                  waits shorter than that are dropped in part; it traces only `synchronized` and the JDK's ReentrantLock,
                  ReentrantReadWriteLock and Semaphore. Every tool's lock is matched to the workload's by the workload's call
                  site in the event's stack. Time spent spinning, or between the end of a park and the successful acquire,
                  is part of the truth but of no tool's events.
                - **hold from hand-offs**: the same truth. lockscope: `avgHoldFromHandoffsNanos`, the holds measured
                  between the lock's hand-offs (a ReentrantLock: from the woken waiter's wake-up, or a barging owner's
                  previous release, to its releasing unpark; a monitor: from a contended acquisition to the next hand-off,
                  which spans uncontended re-entries). JFR and async-profiler: n/a.
                - **mean hold**: true = Σ (release − acquired) / acquisitions. lockscope: `avgHoldNanos`, the J9 park-contention report's estimate
                  from parking alone (real-time with at least one thread parked / parks); exact only while the lock is
                  saturated. JFR and async-profiler record waits only: n/a (no hold-time estimate).
                - **owner share \\<site\\>**: true = the part of all waiting on the lock that overlapped holds made at that site,
                  over the lock's total wait (the rest, a few %, is hand-off gaps between a release and the next acquire).
                  lockscope: `blame[]` rows of the lock whose `ownerFrames` contain the site, over all of the lock's rows
                  (owner unknown included). JFR and async-profiler record the waiter's stack only: n/a (no owner information).
                """);
        md.append("\n### Raw runs\n\n| workload | lock | metric | tool | repeat | true | reported | error |\n|---|---|---|---|---|---|---|---|\n");
        for (Measurement m : ms) {
            boolean supported = supports(m.tool(), m.kind());
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %s | %s | %s |%n", m.workload(), m.lock(), m.metric(),
                    toolTitle(m.tool()), m.repeat(), raw(m.kind(), m.truth()), supported ? raw(m.kind(), m.reported()) : "n/a",
                    supported ? error(m.kind(), m.error()) : "n/a"));
        }
        return md.toString();
    }

    /** Raw numbers: nanoseconds as integers, shares with four decimals. */
    private static String raw(Kind kind, double v) {
        if (Double.isNaN(v)) {
            return "none";
        }
        return kind == Kind.SHARE ? String.format(Locale.ROOT, "%.4f", v) : String.format(Locale.ROOT, "%.0f ns", v);
    }
}
