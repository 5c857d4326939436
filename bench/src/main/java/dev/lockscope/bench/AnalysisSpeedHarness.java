package dev.lockscope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * How fast {@code lockscope report} analyses big recordings, and in how much heap, next to
 * async-profiler's converter ({@code jfrconv --lock}, a lock flame graph from the same file) and
 * {@code jfr summary}, and, with {@code --baseline-cli}, next to another build of lockscope. The
 * recordings are made by workloads under the lockscope agent at its defaults: the ArrayBlockingQueue pipeline
 * (which parks and unparks millions of times), run as long as it takes to reach each size, and real
 * applications ({@link LibraryWorkloads} Derby, Jetty, commons-pool2 and log4j2 at 16 threads, 12 s, and 120 s
 * in a full run), whose recordings have many lock objects per site, many waits per object and many threads.
 * Every tool runs
 * with the same fixed maximum heap; peak heap is the largest heap occupancy after a GC in
 * {@code -Xlog:gc} (what the analysis retains, and garbage G1 left for later: lockscope also runs at 128 MB, which
 * bounds what it retains). Wall and CPU
 * time are both kept: on a shared machine wall time follows the load, CPU time much less.
 */
final class AnalysisSpeedHarness {
    /** The file of the options the {@code lockscope} launcher gives its JVM (the collector, the JIT's bounds). */
    static final String LAUNCHER_OPTIONS = "cli/jvm-options";
    /** The fixed heap every tool gets: lockscope's analysis must stream within it at every size. */
    static final String HEAP = "256m";
    private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");
    private static final long MB = 1 << 20;
    static final String LOCKSCOPE = "lockscope report";
    /**
     * The same in half the heap: the peak heap after a GC at {@link #HEAP} is how full G1 let the heap get (under a
     * 256 MB cap it collects late, so garbage counts too); whether the report completes at 128 MB says what it retains.
     */
    static final String LOCKSCOPE_SMALL_HEAP = "lockscope report -Xmx128m";
    static final String BASELINE = "lockscope report (baseline)";
    static final String JFRCONV = "jfrconv --lock";
    static final String JFR_SUMMARY = "jfr summary";

    private final BenchSettings settings;

    private AnalysisSpeedHarness(BenchSettings settings) {
        this.settings = settings;
    }

    /** A measured analysis run of one recording (by its name). */
    record Analysis(String tool, String recording, long fileBytes, int repeat, double seconds, double cpuSeconds,
                    long peakHeapAfterGcMb, long peakRssBytes, String failure) {
    }

    /**
     * A recording to analyse: made by {@code workload} ({@link LibraryWorkloads}' name) at {@code threads} for
     * {@code seconds} under the agent; {@code targetBytes} > 0: the pipeline, remade longer until near that size.
     */
    record Target(String name, String workload, int threads, double seconds, long targetBytes) {
    }

    /** The real applications' recordings: a 12-second one of each, and a 120-second one in a full run. */
    static final List<String> APPLICATIONS = List.of("derby", "http-server", "object-pool", "log4j2");

    List<Target> targets() {
        List<Target> out = new ArrayList<>();
        if (settings.smoke()) {
            out.add(new Target("pipeline 2 MB", "queue-pipeline", 4, 0.5, 2 * MB));
            out.add(new Target("derby 2 s", "derby", 16, 2, 0));
            return out;
        }
        List<Long> sizes = settings.recordingSizesMb().isEmpty() ? List.of(10L, 100L, 1024L) : settings.recordingSizesMb();
        for (long mb : sizes) {
            out.add(new Target("pipeline " + mb + " MB", "queue-pipeline", 4, 5, mb * MB));
        }
        for (double seconds : new double[] {12, 120}) {
            for (String app : APPLICATIONS) {
                out.add(new Target(String.format(Locale.ROOT, "%s %.0f s", app, seconds), app, 16, seconds, 0));
            }
        }
        return out;
    }

    static String section(BenchSettings settings) throws Exception {
        return new AnalysisSpeedHarness(settings).measure();
    }

    /** The tools compared, in the order of the first repetition. */
    private List<String> tools() {
        List<String> tools = new ArrayList<>(List.of(LOCKSCOPE, LOCKSCOPE_SMALL_HEAP));
        if (settings.baselineCli() != null) {
            tools.add(BASELINE);
        }
        tools.addAll(List.of(JFRCONV, JFR_SUMMARY));
        return tools;
    }

    private String measure() throws Exception {
        int repeats = settings.smoke() ? 1 : Math.min(settings.repeats(), 3);
        List<Analysis> runs = new ArrayList<>();
        List<String> made = new ArrayList<>();
        List<String> tools = tools();
        double mbPerSecond = 0;
        for (Target target : targets()) {
            Path file = settings.work().resolve("recording-" + target.name().replaceAll("[^A-Za-z0-9]+", "-") + ".jfr");
            // The event rate follows the CPU the workload gets, which on a shared machine changes from
            // minute to minute: a short run is scaled up to the size, and a recording far below its
            // size is made again, longer in proportion (a smoke run takes the first one).
            double seconds = target.seconds();
            long began = System.nanoTime();
            generate(file, target.workload(), target.threads(), seconds);
            for (int attempt = 1; attempt < 5 && !settings.smoke() && Files.size(file) < 0.8 * target.targetBytes(); attempt++) {
                seconds *= 1.05 * target.targetBytes() / Files.size(file);
                generate(file, target.workload(), target.threads(), seconds);
            }
            if (target.targetBytes() > 0) {
                mbPerSecond = Files.size(file) / (double) MB / seconds;
            }
            made.add(String.format(Locale.ROOT, "%s: %s at %d threads ran %.1f s, wrote %.1f MB in %.1f s; %s", target.name(),
                    target.workload(), target.threads(), seconds, Files.size(file) / (double) MB, (System.nanoTime() - began) / 1e9,
                    eventCounts(file)));
            for (int r = 0; r < repeats; r++) {
                // interleaved, the order rotated every repetition, so drift hits every tool alike
                for (int t = 0; t < tools.size(); t++) {
                    runs.add(run(tools.get((t + r) % tools.size()), target.name(), file, r));
                }
            }
            Files.delete(file);
        }
        return markdown(runs, made, repeats, mbPerSecond);
    }

    /** The JDK lock events jfrconv --lock reads. */
    private static final List<String> JDK_LOCK_EVENTS = List.of("jdk.JavaMonitorEnter", "jdk.ThreadPark");

    /**
     * How many events the recording holds and how many of them are the JDK lock events {@code jfrconv --lock} reads
     * (lockscope reads every event), from {@code jfr summary}'s counts.
     */
    String eventCounts(Path file) throws Exception {
        Path out = settings.work().resolve("summary.txt");
        MeasuredProcess p = MeasuredProcess.run(List.of(Path.of(settings.java()).resolveSibling("jfr").toString(), "summary",
                file.toString()), out);
        if (p.exitCode() != 0) {
            return "events not counted (jfr summary exit " + p.exitCode() + ")";
        }
        long[] counts = summaryCounts(p.output());
        return String.format(Locale.ROOT, "%,d events, %,d of them jdk.JavaMonitorEnter or jdk.ThreadPark", counts[0], counts[1]);
    }

    private static final Pattern SUMMARY_ROW = Pattern.compile("^\\s*(\\S+)\\s+(\\d+)\\s+\\d+\\s*$");

    /** {@code jfr summary}'s event rows summed: all events, and the JDK lock events'. */
    static long[] summaryCounts(String summary) {
        long all = 0;
        long lock = 0;
        for (String line : summary.lines().toList()) {
            Matcher m = SUMMARY_ROW.matcher(line);
            if (m.matches()) {
                long n = Long.parseLong(m.group(2));
                all += n;
                if (JDK_LOCK_EVENTS.contains(m.group(1))) {
                    lock += n;
                }
            }
        }
        return new long[] {all, lock};
    }

    private void generate(Path file, String workload, int threads, double seconds) throws Exception {
        System.err.printf(Locale.ROOT, "analysis-speed: recording %s (%s, %.1f s of workload)%n", file.getFileName(), workload, seconds);
        List<String> cmd = List.of(settings.java(),
                "-javaagent:" + settings.root().resolve("agent/target/lockscope-agent.jar") + "=file=" + file + ",report=off,quiet,maxSize=0",
                "-cp", settings.root().resolve("bench/target/lockscope-bench.jar").toString(),
                LibraryWorkloads.class.getName(), workload, Integer.toString(threads), "0", String.format(Locale.ROOT, "%.2f", seconds));
        MeasuredProcess p = MeasuredProcess.run(cmd, settings.work().resolve("generate.txt"));
        if (p.exitCode() != 0 || !Files.exists(file)) {
            throw new IOException("making the recording failed (exit " + p.exitCode() + "):\n" + p.tail());
        }
    }

    /** {@code lockscope report FILE} as the launcher runs it: its options ({@link #launcherOptions}), then the heap. */
    private List<String> lockscope(String java, String heap, String gcLog, Path cli, Path file) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(launcherOptions(settings.root()));
        cmd.addAll(List.of(heap, gcLog, "-jar", cli.toString(), "report", file.toString()));
        return cmd;
    }

    /** The options in {@link #LAUNCHER_OPTIONS} under the project's root: one per line, {@code #} comments skipped. */
    static List<String> launcherOptions(Path root) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(root.resolve(LAUNCHER_OPTIONS))) {
            String option = line.strip();
            if (!option.isEmpty() && !option.startsWith("#")) {
                out.add(option);
            }
        }
        return out;
    }

    private Analysis run(String tool, String recording, Path file, int repeat) throws Exception {
        Path gc = settings.work().resolve("gc.log");
        String java = settings.java();
        String heap = "-Xmx" + HEAP;
        String gcLog = "-Xlog:gc:file=" + gc;
        List<String> cmd = switch (tool) {
            case LOCKSCOPE -> lockscope(java, heap, gcLog, settings.root().resolve("cli/target/lockscope.jar"), file);
            case LOCKSCOPE_SMALL_HEAP -> lockscope(java, "-Xmx128m", gcLog, settings.root().resolve("cli/target/lockscope.jar"), file);
            case BASELINE -> lockscope(java, heap, gcLog, settings.baselineCli(), file);
            case JFRCONV -> List.of(java, heap, gcLog, "-jar", settings.root().resolve("bench/target/jfr-converter.jar").toString(),
                    "--lock", file.toString(), settings.work().resolve("lock-flame.html").toString());
            case JFR_SUMMARY -> List.of(Path.of(java).resolveSibling("jfr").toString(), "-J" + heap, "-J" + gcLog, "summary",
                    file.toString());
            default -> throw new IllegalArgumentException(tool);
        };
        return analyse(tool, recording, file, repeat, gc, cmd);
    }

    private Analysis analyse(String tool, String recording, Path file, int repeat, Path gcLog, List<String> cmd) throws Exception {
        System.err.printf(Locale.ROOT, "analysis-speed: %s on %s%n", tool, recording);
        Files.deleteIfExists(gcLog);
        MeasuredProcess p = MeasuredProcess.run(cmd, settings.work().resolve("analysis.txt"));
        String failure = null;
        if (p.exitCode() != 0) {
            failure = p.output().contains("OutOfMemoryError") || p.output().contains("lockscope: out of memory") ? "out of memory"
                    : "exit " + p.exitCode();
            System.err.println("analysis-speed: " + tool + " failed (" + failure + "):\n" + p.tail());
            settings.failures().incrementAndGet();
        }
        return new Analysis(tool, recording, Files.size(file), repeat, p.wallNanos() / 1e9, p.cpuNanos() / 1e9,
                peakHeapAfterGc(gcLog), p.peakRssBytes(), failure);
    }

    /**
     * Largest heap occupancy right after a full GC, in MB, where the JVM made one: what the tool retains (the serial
     * collector's young collections leave the old generation's garbage in place, so the heap after one reads up to the
     * cap); otherwise after any GC (G1's young and mixed ones, which collect old regions too); 0 when it never collected.
     */
    static long peakHeapAfterGc(Path gcLog) throws IOException {
        if (!Files.exists(gcLog)) {
            return 0;
        }
        long peak = 0;
        long peakAfterFull = -1;
        for (String line : Files.readAllLines(gcLog)) {
            Matcher m = GC_LINE.matcher(line);
            if (m.find()) {
                long after = Long.parseLong(m.group(2));
                peak = Math.max(peak, after);
                if (line.contains("Pause Full")) {
                    peakAfterFull = Math.max(peakAfterFull, after);
                }
            }
        }
        return peakAfterFull >= 0 ? peakAfterFull : peak;
    }

    private String markdown(List<Analysis> runs, List<String> made, int repeats, double mbPerSecond) {
        StringBuilder md = new StringBuilder("## Analysis speed\n\n");
        md.append(String.format(Locale.ROOT, "`lockscope report FILE` (the default text report: lock table, owner blame, "
                + "findings)%s, async-profiler's converter making a lock flame graph of the same file (`jfrconv --lock FILE "
                + "out.html`, tools.profiler:jfr-converter %s) and `jfr summary FILE`, on recordings made under the "
                + "lockscope agent at its defaults: by the ArrayBlockingQueue pipeline (%.1f MB of recording per second of "
                + "workload here), run to each size, and by real applications (`LibraryWorkloads NAME 16 0 SECONDS`: "
                + "Derby's row locks, Jetty under loopback load, an exhausted commons-pool2 pool, log4j2's file appender), "
                + "whose recordings have many lock objects per site, many waits per object and many threads. All run with "
                + "`-Xmx%s`, lockscope with the options its launcher gives it (`cli/jvm-options`: the serial collector, C2's smaller inlining bounds) and once more "
                + "with `-Xmx128m` (completing in 128 MB bounds what it retains); %d repetition(s), interleaved, the order rotated each repetition. CPU × jfrconv is "
                + "lockscope's median CPU time over the converter's on the same file. "
                + "Wall time is from start to exit; CPU time is user + system of all the JVM's threads (JIT and GC "
                + "included; polled from /proc every 50 ms, so short by what the JVM used in its last 50 ms). MB/s is recording size over median "
                + "wall time. Peak heap = largest heap occupancy after a full GC (`-Xlog:gc`), where there was one: what the tool retains; otherwise after any GC, which counts garbage not collected yet. "
                + "`jfr summary` only counts events per type from the chunk headers and metadata, and jfrconv skips "
                + "every event but the JDK's lock events (the recordings hold almost only lockscope's), so both "
                + "mark what reading the file costs; lockscope parses and analyses every event.%n%n",
                settings.baselineCli() == null ? "" : ", the same from another build (`--baseline-cli`, named below)",
                jfrConverterVersion(), mbPerSecond, HEAP, repeats));
        if (settings.baselineCli() != null) {
            md.append("Baseline: `").append(settings.baselineCli().getFileName()).append("`.\n\n");
        }
        md.append("| recording | MB | tool | median wall s | median CPU s | CPU × jfrconv | MB/s | peak heap after GC MB | "
                + "peak RSS MB | failures |\n|---|---|---|---|---|---|---|---|---|---|\n");
        List<String> keys = new ArrayList<>();
        List<String> speedups = new ArrayList<>();
        for (Analysis a : runs) {
            String key = a.recording() + "\u0000" + a.tool();
            if (keys.contains(key)) {
                continue;
            }
            keys.add(key);
            Summary s = summary(runs, a.recording(), a.tool());
            Summary converter = summary(runs, a.recording(), JFRCONV);
            boolean ours = a.tool().startsWith(LOCKSCOPE);
            md.append(String.format(Locale.ROOT, "| %s | %.1f | %s | %s | %s | %s | %s | %d | %d | %s |%n", a.recording(),
                    a.fileBytes() / (double) MB, a.tool(),
                    s.wall().isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.2f", s.wallMedian()),
                    s.cpu().isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.2f", s.cpuMedian()),
                    !ours || s.cpu().isEmpty() || converter.cpu().isEmpty() ? ""
                            : String.format(Locale.ROOT, "%.1f", s.cpuMedian() / converter.cpuMedian()),
                    s.wall().isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.1f", a.fileBytes() / (double) MB / s.wallMedian()),
                    s.heap(), s.rss() / MB, s.failures().isEmpty() ? "none" : String.join(", ", s.failures())));
            if (a.tool().equals(LOCKSCOPE) && settings.baselineCli() != null) {
                Summary old = summary(runs, a.recording(), BASELINE);
                if (!s.wall().isEmpty() && !old.wall().isEmpty()) {
                    speedups.add(String.format(Locale.ROOT, "- %s: %.2fx faster in wall time, %.2fx less CPU time",
                            a.recording(), old.wallMedian() / s.wallMedian(), old.cpuMedian() / s.cpuMedian()));
                }
            }
        }
        if (!speedups.isEmpty()) {
            md.append("\nThis build against the baseline (ratio of medians):\n\n");
            speedups.forEach(line -> md.append(line).append('\n'));
        }
        md.append("\nRecordings:\n\n");
        for (String m : made) {
            md.append("- ").append(m).append('\n');
        }
        md.append("\n### Raw analysis runs\n\n| recording | bytes | tool | repeat | wall s | CPU s | peak heap after GC MB | "
                + "peak RSS bytes | failure |\n|---|---|---|---|---|---|---|---|---|\n");
        for (Analysis a : runs) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %d | %.3f | %.2f | %d | %d | %s |%n", a.recording(), a.fileBytes(), a.tool(),
                    a.repeat(), a.seconds(), a.cpuSeconds(), a.peakHeapAfterGcMb(), a.peakRssBytes(),
                    a.failure() == null ? "" : a.failure()));
        }
        return md.toString();
    }

    /** The runs of one tool on one recording: times of those that succeeded, largest heap and RSS, failures. */
    private record Summary(List<Double> wall, List<Double> cpu, long heap, long rss, List<String> failures) {
        double wallMedian() {
            return Stats.of(wall).median();
        }

        double cpuMedian() {
            return Stats.of(cpu).median();
        }
    }

    private static Summary summary(List<Analysis> runs, String recording, String tool) {
        List<Double> wall = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        long heap = 0;
        long rss = 0;
        List<String> failures = new ArrayList<>();
        for (Analysis b : runs) {
            if (b.recording().equals(recording) && b.tool().equals(tool)) {
                if (b.failure() == null) {
                    wall.add(b.seconds());
                    cpu.add(b.cpuSeconds());
                } else {
                    failures.add(b.failure());
                }
                heap = Math.max(heap, b.peakHeapAfterGcMb());
                rss = Math.max(rss, b.peakRssBytes());
            }
        }
        return new Summary(wall, cpu, heap, rss, failures);
    }

    /** The converter's version, from the jar's Maven metadata; "?" when it cannot be read. */
    private String jfrConverterVersion() {
        Path jar = settings.root().resolve("bench/target/jfr-converter.jar");
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry entry = zip.getEntry("META-INF/maven/tools.profiler/jfr-converter/pom.properties");
            if (entry != null) {
                Properties p = new Properties();
                p.load(zip.getInputStream(entry));
                return p.getProperty("version", "?");
            }
        } catch (IOException e) {
            // fall through
        }
        return "?";
    }
}
