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
 * live metrics scraped as Prometheus would) on the ArrayBlockingQueue pipeline for an hour
 * ({@code --soak-duration}), sampling the JVM's resident set and the bytes in its JFR repository every
 * 10 s. Reported: the slope of each after warm-up (the first fifth of the run) by least squares, in
 * MB per hour, and the pipeline's throughput against a bare run of the same length as the warm-up.
 * Not in CI and not in the default sections: {@code scripts/performance.sh --only soak}.
 */
final class SoakHarness {
    private static final Pattern ENDPOINT = Pattern.compile("lockscope: metrics at (http://[^ ]+/metrics)");
    private static final Pattern THROUGHPUT = Pattern.compile("throughput: ([0-9.]+) ops/s");
    /**
     * A fixed heap, as production JVMs run: without one the RSS follows G1's heap sizing (which grows
     * with the allocation rate up to a quarter of the machine's memory) rather than what is kept.
     */
    private static final String HEAP = "-Xmx512m";

    private SoakHarness() {
    }

    static String section(BenchSettings settings) throws Exception {
        Duration length = settings.soakDuration();
        long seconds = Math.max(20, length.toSeconds());
        long warmup = seconds / 5;
        Path work = Files.createDirectories(settings.work().resolve("soak"));
        Path repository = Files.createDirectories(work.resolve("repository"));
        Path bench = settings.root().resolve("bench/target/lockscope-bench.jar");
        String maxAge = Math.max(1, seconds / 6) + "s";
        String agent = "-javaagent:" + settings.root().resolve("agent/target/lockscope-agent.jar") + "=file=" + work.resolve("soak.jfr")
                + ",continuous,maxSize=16m,maxAge=" + maxAge + ",metricsPort=0,report=off,cpuSamples=20ms";

        double bare = throughput(MeasuredProcess.run(List.of(settings.java(), HEAP, "-cp", bench.toString(), LibraryWorkloads.class.getName(),
                "queue-pipeline", "4", "2", Long.toString(warmup)), work.resolve("bare.txt")).output());

        Path log = work.resolve("soak.txt");
        Process p = new ProcessBuilder(settings.java(), HEAP, "-XX:FlightRecorderOptions:repository=" + repository, agent,
                "-cp", bench.toString(), LibraryWorkloads.class.getName(), "queue-pipeline", "4", "2", Long.toString(seconds))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        List<double[]> samples = new ArrayList<>(); // seconds, RSS MB, repository MB
        int scrapes = 0;
        int failedScrapes = 0;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long start = System.nanoTime();
        Path statm = Path.of("/proc", Long.toString(p.pid()), "statm");
        while (!p.waitFor(10, TimeUnit.SECONDS)) {
            double at = (System.nanoTime() - start) / 1e9;
            samples.add(new double[]{at, MeasuredProcess.residentBytes(statm) / 1e6, directoryBytes(repository) / 1e6});
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
        if (p.exitValue() != 0 || samples.size() < 3) {
            settings.failures().incrementAndGet();
            return "## Soak (continuous mode)\n\nfailed (exit " + p.exitValue() + ", " + samples.size() + " samples): see " + log + "\n";
        }
        double soak = throughput(output);
        List<double[]> steady = samples.stream().filter(s -> s[0] >= warmup).toList();
        double rssSlope = slopePerHour(steady, 1);
        double diskSlope = slopePerHour(steady, 2);
        double[] last = samples.get(samples.size() - 1);
        double rssMax = samples.stream().mapToDouble(s -> s[1]).max().orElse(0);
        double diskMax = samples.stream().mapToDouble(s -> s[2]).max().orElse(0);
        Files.writeString(work.resolve("samples.csv"), "seconds,rss_mb,repository_mb\n" + String.join("\n",
                samples.stream().map(s -> String.format(Locale.ROOT, "%.0f,%.1f,%.1f", s[0], s[1], s[2])).toList()) + "\n");
        return "## Soak (continuous mode)\n\n"
                + String.format(Locale.ROOT, "The ArrayBlockingQueue pipeline (4 threads, `" + HEAP + "`) for %d s under `%s`, RSS and the bytes in "
                        + "JFR's repository sampled every 10 s, `/metrics` scraped at each sample (%d scrapes, %d failed). "
                        + "Slopes by least squares after the first %d s (warm-up). Samples: `%s`.%n%n",
                seconds, agent.substring(agent.indexOf('=') + 1).replace(work.toString(), "DIR"), scrapes, failedScrapes, warmup,
                work.resolve("samples.csv"))
                + "| RSS slope | RSS last / max | repository slope | repository last / max | throughput soak / bare (" + warmup + " s) |\n"
                + "|---|---|---|---|---|\n"
                + String.format(Locale.ROOT, "| %+.1f MB/h | %.0f / %.0f MB | %+.1f MB/h | %.1f / %.1f MB | %.0f / %.0f ops/s |%n",
                rssSlope, last[1], rssMax, diskSlope, last[2], diskMax, soak, bare);
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
