package dev.lockscope.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Soak: the agent in continuous mode ({@code continuous}, rotation by {@code maxSize}/{@code maxAge},
 * live metrics scraped as Prometheus would) on a real application, the Jetty 12 server of
 * {@link LibraryWorkloads} under loopback load from 16 client threads (in a JVM of their own since 2026-11-28), for an hour
 * ({@code --soak-duration}). Every 10 s it samples the JVM's resident set (and its part in the Java
 * heap's address range, from /proc/PID/smaps) and the bytes in its JFR repository; every 5 minutes
 * the JVM's native memory tracking (NMT) total and Java heap, committed. Reported: the slope of each after warm-up (the first
 * fifth of the run) by least squares, in MB per hour, and the server's throughput against runs just before
 * and just after it (two each, so that a change of the machine's load over the hour shows), bare and under
 * the agent's default mode (not continuous): the soak's cost beside the default mode's, measured alike.
 * Every run, the soak included, measures after Jetty's warm-up ({@link OverheadHarness#HTTP_SERVER_WARMUP_SECONDS}).
 * Not in CI and not in the default sections: {@code scripts/performance.sh --only soak}.
 */
final class SoakHarness {
    private static final Pattern ENDPOINT = Pattern.compile("lockscope: metrics at (http://[^ ]+/metrics)");
    private static final Pattern THROUGHPUT = Pattern.compile("throughput: ([0-9.]+) ops/s");
    private static final Pattern NMT_TOTAL = Pattern.compile("Total: reserved=\\d+KB(?: [+-]\\d+KB)?, committed=(\\d+)KB");
    private static final Pattern HEAP_RANGE = Pattern.compile("\\[0x([0-9a-f]+), 0x([0-9a-f]+)\\)");
    private static final Pattern MAPPING = Pattern.compile("^([0-9a-f]+)-([0-9a-f]+) ");
    private static final Pattern NMT_HEAP = Pattern.compile("Java Heap \\(reserved=\\d+KB(?: [+-]\\d+KB)?, committed=(\\d+)KB");
    private static final String WORKLOAD = "http-server";
    private static final String THREADS = "16";
    /**
     * By default a fixed heap, committed and touched at start-up, as production JVMs run: with only
     * {@code -Xmx} the RSS grows for as long as G1 touches heap regions for the first time, which says
     * nothing about what the agent keeps ({@code --soak-jvm -Xmx512m} shows it: the growth is in the
     * heap's address range).
     */
    private static final List<String> DEFAULT_HEAP = List.of("-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch");
    private static final long SAMPLE_SECONDS = 10;
    private static final long NMT_EVERY_SAMPLES = 30;
    /** The comparison runs (bare, default mode), at most this long each (an hour's warm-up would be 12 minutes). */
    private static final long BARE_SECONDS_MAX = 120;

    private SoakHarness() {
    }

    static String section(BenchSettings settings) throws Exception {
        Duration length = settings.soakDuration();
        long seconds = Math.max(20, length.toSeconds());
        long warmup = seconds / 5;
        long bareSeconds = Math.min(warmup, BARE_SECONDS_MAX);
        Path work = Files.createDirectories(settings.work().resolve("soak"));
        Path repository = Files.createDirectories(work.resolve("repository"));
        String maxAge = Math.max(1, seconds / 6) + "s";
        String agent = "-javaagent:" + settings.root().resolve("agent/target/lockscope-agent.jar") + "=file=" + work.resolve("soak.jfr")
                + ",continuous,maxSize=16m,maxAge=" + maxAge + ",metricsPort=0,report=off,cpuSamples=20ms";
        String jcmd = Path.of(settings.java()).resolveSibling("jcmd").toString();
        List<String> heapOptions = settings.soakJvmOptions().isEmpty() ? DEFAULT_HEAP : settings.soakJvmOptions();
        List<String> jvm = new ArrayList<>(heapOptions);
        jvm.add("-XX:NativeMemoryTracking=summary");

        String warmupSeconds = OverheadHarness.HTTP_SERVER_WARMUP_SECONDS;
        List<String> bareCommand = workload(settings, jvm, List.of(), bareSeconds);
        // the agent's default mode as the overhead section runs it; the last run's recording is kept as default.jfr
        List<String> defaultCommand = workload(settings, jvm,
                Profilers.agent(settings.root().resolve("agent/target/lockscope-agent.jar").toString(), work.resolve("default.jfr")),
                bareSeconds);
        System.err.println("soak: bare and default-mode runs before the soak (" + bareSeconds + " s each after " + warmupSeconds
                + " s of warm-up)");
        double bareBefore = throughput(MeasuredProcess.run(bareCommand, work.resolve("bare-before.txt")).output());
        double defaultBefore = throughput(MeasuredProcess.run(defaultCommand, work.resolve("default-before.txt")).output());

        Path log = work.resolve("soak.txt");
        List<String> soakCommand = workload(settings, jvm, List.of("-XX:FlightRecorderOptions:repository=" + repository, agent), seconds);
        Process p = new ProcessBuilder(soakCommand).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        // seconds, RSS, RSS in the heap's range, RSS outside it, repository, NMT committed, heap committed (MB; NaN where
        // not sampled), load average
        List<double[]> samples = new ArrayList<>();
        Path csv = work.resolve("samples.csv");
        System.err.println("soak: samples in " + csv);
        Files.writeString(csv, "seconds,rss_mb,rss_heap_mb,rss_outside_heap_mb,repository_mb,nmt_committed_mb,heap_committed_mb,loadavg1\n");
        int scrapes = 0;
        int failedScrapes = 0;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long start = System.nanoTime();
        Path statm = Path.of("/proc", Long.toString(p.pid()), "statm");
        Path smaps = Path.of("/proc", Long.toString(p.pid()), "smaps");
        long[] heapRange = null;
        while (!p.waitFor(SAMPLE_SECONDS, TimeUnit.SECONDS)) {
            double at = (System.nanoTime() - start) / 1e9;
            double[] nmt = samples.size() % NMT_EVERY_SAMPLES == 0 ? nativeMemory(jcmd, p.pid(), work, (long) at) : new double[]{Double.NaN, Double.NaN};
            if (heapRange == null) {
                heapRange = heapRange(jcmd, p.pid());
            }
            double rss = MeasuredProcess.residentBytes(statm) / 1e6;
            double heapRss = heapRange == null ? Double.NaN : residentBytesIn(smaps, heapRange) / 1e6;
            double[] sample = {at, rss, heapRss, rss - heapRss, directoryBytes(repository) / 1e6, nmt[0], nmt[1], loadAverage()};
            samples.add(sample);
            Files.writeString(csv, String.format(Locale.ROOT, "%.0f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.2f%n", sample[0], sample[1], sample[2],
                    sample[3], sample[4], sample[5], sample[6], sample[7]), java.nio.file.StandardOpenOption.APPEND);
            Matcher m = ENDPOINT.matcher(Files.readString(log));
            if (m.find()) {
                scrapes++;
                try {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(m.group(1))).timeout(Duration.ofSeconds(10)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200 || !r.body().contains("lockscope_lock_wait_seconds_total")) {
                        failedScrapes++;
                    }
                } catch (IOException e) {
                    failedScrapes++;
                }
            }
        }
        String output = Files.readString(log);
        System.err.println("soak: default-mode and bare runs after the soak");
        double defaultAfter = throughput(MeasuredProcess.run(defaultCommand, work.resolve("default-after.txt")).output());
        double bareAfter = throughput(MeasuredProcess.run(bareCommand, work.resolve("bare-after.txt")).output());
        double bare = (bareBefore + bareAfter) / 2;
        double defaultMode = (defaultBefore + defaultAfter) / 2;
        if (p.exitValue() != 0 || samples.size() < 3) {
            settings.failures().incrementAndGet();
            return "## Soak (continuous mode)\n\nfailed (exit " + p.exitValue() + ", " + samples.size() + " samples): see " + log + "\n";
        }
        double soak = throughput(output);
        List<double[]> steady = samples.stream().filter(s -> s[0] >= warmup).toList();
        List<double[]> steadyNmt = steady.stream().filter(s -> !Double.isNaN(s[5])).toList();
        double load = steady.stream().mapToDouble(s -> s[7]).average().orElse(Double.NaN);
        return "## Soak (continuous mode)\n\n"
                + String.format(Locale.ROOT, "The Jetty 12 server of `LibraryWorkloads %s %s` (loopback load from %s client threads in a JVM of their own, `%s`) "
                        + "for %d s under `%s`, RSS and the bytes in JFR's repository sampled every %d s, `/metrics` scraped at each "
                        + "sample (%d scrapes, %d failed), NMT every %d s. Slopes by least squares after the first %d s (warm-up); "
                        + "machine load average over them %.1f on %d CPUs. Samples: `%s`.%n%n",
                        WORKLOAD, THREADS, THREADS, String.join(" ", jvm), seconds,
                        agent.substring(agent.indexOf('=') + 1).replace(work.toString(), "DIR"), SAMPLE_SECONDS, scrapes, failedScrapes,
                        SAMPLE_SECONDS * NMT_EVERY_SAMPLES, warmup, load, Runtime.getRuntime().availableProcessors(), csv)
                + "| | slope after warm-up | last | max |\n|---|---|---|---|\n"
                + row("RSS", samples, steady, 1) + row("RSS in the Java heap's range", samples, steady, 2)
                + row("RSS outside the Java heap", samples, steady, 3)
                + row("NMT committed", samples.stream().filter(s -> !Double.isNaN(s[5])).toList(), steadyNmt, 5)
                + row("Java heap committed", samples.stream().filter(s -> !Double.isNaN(s[6])).toList(), steadyNmt, 6)
                + row("JFR repository (disk)", samples, steady, 4)
                + String.format(Locale.ROOT, "%nThroughput (each run measured after %s s of warm-up): %.0f requests/s over the soak; "
                        + "bare %.0f / %.0f before / after it, the agent's default mode %.0f / %.0f (%d s each, same JVM options). "
                        + "Throughput below the bare mean: soak %.1f%%, default mode %.1f%%.%n", warmupSeconds, soak, bareBefore,
                        bareAfter, defaultBefore, defaultAfter, bareSeconds, 100 * (1 - soak / bare), 100 * (1 - defaultMode / bare));
    }

    /** The JVM running the Jetty workload for {@code seconds} after its warm-up, with {@code jvm} and then {@code extra} options. */
    private static List<String> workload(BenchSettings settings, List<String> jvm, List<String> extra, long seconds) {
        List<String> command = new ArrayList<>(List.of(settings.java()));
        command.addAll(jvm);
        command.addAll(extra);
        command.addAll(List.of("-cp", settings.root().resolve("bench/target/lockscope-bench.jar").toString(),
                LibraryWorkloads.class.getName(), WORKLOAD, THREADS, OverheadHarness.HTTP_SERVER_WARMUP_SECONDS, Long.toString(seconds)));
        return command;
    }

    private static String row(String what, List<double[]> all, List<double[]> steady, int column) {
        if (all.isEmpty()) {
            return "| " + what + " | not sampled | | |\n";
        }
        return String.format(Locale.ROOT, "| %s | %+.1f MB/h | %.1f MB | %.1f MB |%n", what, steady.size() < 2 ? Double.NaN : slopePerHour(steady, column),
                all.get(all.size() - 1)[column], all.stream().mapToDouble(s -> s[column]).max().orElse(Double.NaN));
    }

    /**
     * NMT's committed total and Java heap, in MB, from {@code jcmd PID VM.native_memory summary}
     * (each output kept as {@code nmt-SECONDS.txt}); NaN when jcmd failed.
     */
    private static double[] nativeMemory(String jcmd, long pid, Path work, long at) {
        try {
            Process j = new ProcessBuilder(jcmd, Long.toString(pid), "VM.native_memory", "summary").redirectErrorStream(true).start();
            String text = new String(j.getInputStream().readAllBytes());
            j.waitFor(60, TimeUnit.SECONDS);
            Files.writeString(work.resolve("nmt-" + at + ".txt"), text);
            Matcher total = NMT_TOTAL.matcher(text);
            Matcher heap = NMT_HEAP.matcher(text);
            return new double[]{total.find() ? Long.parseLong(total.group(1)) * 1024 / 1e6 : Double.NaN,
                    heap.find() ? Long.parseLong(heap.group(1)) * 1024 / 1e6 : Double.NaN};
        } catch (IOException | InterruptedException e) {
            return new double[]{Double.NaN, Double.NaN};
        }
    }

    /** The Java heap's address range from {@code jcmd PID GC.heap_info}; null when not found. */
    private static long[] heapRange(String jcmd, long pid) {
        try {
            Process j = new ProcessBuilder(jcmd, Long.toString(pid), "GC.heap_info").redirectErrorStream(true).start();
            String text = new String(j.getInputStream().readAllBytes());
            j.waitFor(60, TimeUnit.SECONDS);
            Matcher m = HEAP_RANGE.matcher(text);
            return m.find() ? new long[]{Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(2), 16)} : null;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

    /** Resident bytes of the mappings inside {@code range} (start inclusive, end exclusive), from /proc/PID/smaps. */
    static long residentBytesIn(Path smaps, long[] range) {
        long kb = 0;
        boolean inside = false;
        try {
            for (String line : Files.readAllLines(smaps)) {
                Matcher m = MAPPING.matcher(line);
                if (m.find()) {
                    inside = Long.parseUnsignedLong(m.group(1), 16) >= range[0] && Long.parseUnsignedLong(m.group(2), 16) <= range[1];
                } else if (inside && line.startsWith("Rss:")) {
                    kb += Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0; // the process may have just exited
        }
        return kb * 1024;
    }

    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Least-squares slope of column {@code y} against column 0 (seconds), per hour. */
    static double slopePerHour(List<double[]> points, int y) {
        double n = points.size();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (double[] p : points) {
            sx += p[0];
            sy += p[y];
            sxx += p[0] * p[0];
            sxy += p[0] * p[y];
        }
        double d = n * sxx - sx * sx;
        return d == 0 ? 0 : (n * sxy - sx * sy) / d * 3600;
    }

    private static double throughput(String output) {
        Matcher m = THROUGHPUT.matcher(output);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    private static long directoryBytes(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException gone) {
                    return 0; // a chunk JFR removed meanwhile
                }
            }).sum();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }
}
