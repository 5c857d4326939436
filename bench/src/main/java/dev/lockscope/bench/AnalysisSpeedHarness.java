package dev.lockscope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How fast {@code lockscope report} analyses big recordings, and in how much heap, next to
 * {@code jfr summary} on the same files. The recordings are made by a workload (the
 * ArrayBlockingQueue pipeline under the lockscope agent, which parks and unparks millions of
 * times), run as long as it takes to reach each size. Both tools run with the same fixed maximum
 * heap; peak heap is the largest heap occupancy after a GC in {@code -Xlog:gc}, so it shows what
 * the analysis retains, not what garbage it made.
 */
final class AnalysisSpeedHarness {
    /** The fixed heap both tools get: lockscope's analysis must stream within it at every size. */
    static final String HEAP = "256m";
    private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");
    private static final long MB = 1 << 20;

    private final BenchSettings settings;

    private AnalysisSpeedHarness(BenchSettings settings) {
        this.settings = settings;
    }

    /** A measured analysis run. */
    record Analysis(String tool, long fileBytes, int repeat, double seconds, long peakHeapAfterGcMb, long peakRssBytes,
                    String failure) {
    }

    static String section(BenchSettings settings) throws Exception {
        return new AnalysisSpeedHarness(settings).measure();
    }

    private String measure() throws Exception {
        List<Long> targets = settings.smoke() ? List.of(2 * MB) : List.of(10 * MB, 100 * MB, 1024 * MB);
        int repeats = settings.smoke() ? 1 : Math.min(settings.repeats(), 3);
        // a smoke run only proves the harness works: no calibration, the smallest recording
        SizeModel size = settings.smoke() ? new SizeModel(0, 4) : calibrate();
        List<Analysis> runs = new ArrayList<>();
        List<String> made = new ArrayList<>();
        for (long target : targets) {
            Path file = settings.work().resolve("recording-" + target / MB + "MB.jfr");
            double seconds = size.secondsFor(target);
            long began = System.nanoTime();
            generate(file, seconds);
            // The event rate follows the CPU the workload gets; on a shared machine the calibration can
            // be off, so a recording far below its size is made again, longer in proportion.
            for (int attempt = 1; attempt < 3 && !settings.smoke() && Files.size(file) < 0.8 * target; attempt++) {
                seconds *= 1.05 * target / Files.size(file);
                generate(file, seconds);
            }
            made.add(String.format(Locale.ROOT, "%s: workload ran %.1f s, wrote %.1f MB in %.1f s", file.getFileName(),
                    seconds, Files.size(file) / (double) MB, (System.nanoTime() - began) / 1e9));
            for (int r = 0; r < repeats; r++) {
                // interleaved, the order swapped every repetition, so drift hits both tools alike
                boolean lockscopeFirst = r % 2 == 0;
                runs.add(lockscopeFirst ? lockscopeReport(file, r) : jfrSummary(file, r));
                runs.add(lockscopeFirst ? jfrSummary(file, r) : lockscopeReport(file, r));
            }
            Files.delete(file);
        }
        return markdown(runs, made, repeats, size.mbPerSecond());
    }

    /**
     * How big a recording of t seconds of workload is on this machine, as a + b·t (a: start-up,
     * metadata and the agent's own classes; b: MB per second of workload), from a 1 s and a 3 s run.
     */
    record SizeModel(double fixedMb, double mbPerSecond) {
        double secondsFor(long bytes) {
            return Math.max(0.2, (bytes / (double) MB - fixedMb) / mbPerSecond);
        }
    }

    private SizeModel calibrate() throws Exception {
        Path file = settings.work().resolve("calibration.jfr");
        generate(file, 1);
        double one = Files.size(file) / (double) MB;
        generate(file, 3);
        double three = Files.size(file) / (double) MB;
        Files.delete(file);
        double rate = Math.max(0.1, (three - one) / 2);
        SizeModel model = new SizeModel(Math.max(0, one - rate), rate);
        System.err.printf(Locale.ROOT, "analysis-speed: the workload records %.1f MB/s (+%.1f MB fixed)%n", rate, model.fixedMb());
        return model;
    }

    private void generate(Path file, double seconds) throws Exception {
        System.err.printf(Locale.ROOT, "analysis-speed: recording %s (%.1f s of workload)%n", file.getFileName(), seconds);
        List<String> cmd = List.of(settings.java(),
                "-javaagent:" + settings.root().resolve("agent/target/lockscope-agent.jar") + "=file=" + file + ",report=off,quiet,maxSize=0",
                "-cp", settings.root().resolve("bench/target/lockscope-bench.jar").toString(),
                LibraryWorkloads.class.getName(), "queue-pipeline", "4", "0", String.format(Locale.ROOT, "%.2f", seconds));
        MeasuredProcess p = MeasuredProcess.run(cmd, settings.work().resolve("generate.txt"));
        if (p.exitCode() != 0 || !Files.exists(file)) {
            throw new IOException("making the recording failed (exit " + p.exitCode() + "):\n" + p.tail());
        }
    }

    private Analysis lockscopeReport(Path file, int repeat) throws Exception {
        Path gc = settings.work().resolve("gc-lockscope.log");
        return analyse("lockscope report", file, repeat, gc, List.of(settings.java(), "-Xmx" + HEAP, "-Xlog:gc:file=" + gc,
                "-jar", settings.root().resolve("cli/target/lockscope.jar").toString(), "report", file.toString()));
    }

    private Analysis jfrSummary(Path file, int repeat) throws Exception {
        Path gc = settings.work().resolve("gc-jfr.log");
        Path jfr = Path.of(settings.java()).resolveSibling("jfr");
        return analyse("jfr summary", file, repeat, gc, List.of(jfr.toString(), "-J-Xmx" + HEAP, "-J-Xlog:gc:file=" + gc,
                "summary", file.toString()));
    }

    private Analysis analyse(String tool, Path file, int repeat, Path gcLog, List<String> cmd) throws Exception {
        System.err.printf(Locale.ROOT, "analysis-speed: %s on %s%n", tool, file.getFileName());
        Files.deleteIfExists(gcLog);
        MeasuredProcess p = MeasuredProcess.run(cmd, settings.work().resolve("analysis.txt"));
        String failure = null;
        if (p.exitCode() != 0) {
            failure = p.output().contains("OutOfMemoryError") ? "out of memory" : "exit " + p.exitCode();
            System.err.println("analysis-speed: " + tool + " failed (" + failure + "):\n" + p.tail());
            settings.failures().incrementAndGet();
        }
        return new Analysis(tool, Files.size(file), repeat, p.wallNanos() / 1e9, peakHeapAfterGc(gcLog), p.peakRssBytes(), failure);
    }

    /** Largest heap occupancy right after a GC, in MB; 0 when the JVM never collected. */
    static long peakHeapAfterGc(Path gcLog) throws IOException {
        if (!Files.exists(gcLog)) {
            return 0;
        }
        long peak = 0;
        for (String line : Files.readAllLines(gcLog)) {
            Matcher m = GC_LINE.matcher(line);
            if (m.find()) {
                peak = Math.max(peak, Long.parseLong(m.group(2)));
            }
        }
        return peak;
    }

    private String markdown(List<Analysis> runs, List<String> made, int repeats, double mbPerSecond) {
        StringBuilder md = new StringBuilder("## Analysis speed\n\n");
        md.append(String.format(Locale.ROOT, "`lockscope report FILE` (the default text report: lock table, owner blame, "
                + "findings) and `jfr summary FILE` on recordings made by the ArrayBlockingQueue pipeline under the lockscope "
                + "agent (%.1f MB of recording per second of workload here). Both run with `-Xmx%s`; %d repetition(s), "
                + "interleaved. Peak heap = largest heap occupancy after a GC (`-Xlog:gc`): what the tool retains. "
                + "`jfr summary` only counts events per type from the chunk headers and metadata; lockscope parses and "
                + "analyses every event.%n%n", mbPerSecond, HEAP, repeats));
        md.append("| recording MB | tool | median s | peak heap after GC MB | peak RSS MB | failures |\n|---|---|---|---|---|---|\n");
        List<String> keys = new ArrayList<>();
        for (Analysis a : runs) {
            String key = a.fileBytes() + "\u0000" + a.tool();
            if (keys.contains(key)) {
                continue;
            }
            keys.add(key);
            List<Double> seconds = new ArrayList<>();
            long heap = 0;
            long rss = 0;
            List<String> failures = new ArrayList<>();
            for (Analysis b : runs) {
                if (b.fileBytes() == a.fileBytes() && b.tool().equals(a.tool())) {
                    if (b.failure() == null) {
                        seconds.add(b.seconds());
                    } else {
                        failures.add(b.failure());
                    }
                    heap = Math.max(heap, b.peakHeapAfterGcMb());
                    rss = Math.max(rss, b.peakRssBytes());
                }
            }
            md.append(String.format(Locale.ROOT, "| %.1f | %s | %s | %d | %d | %s |%n", a.fileBytes() / (double) MB, a.tool(),
                    seconds.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.2f", Stats.of(seconds).median()), heap, rss / MB,
                    failures.isEmpty() ? "none" : String.join(", ", failures)));
        }
        md.append("\nRecordings:\n\n");
        for (String m : made) {
            md.append("- ").append(m).append('\n');
        }
        md.append("\n### Raw analysis runs\n\n| recording bytes | tool | repeat | seconds | peak heap after GC MB | peak RSS bytes | failure |\n|---|---|---|---|---|---|---|\n");
        for (Analysis a : runs) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %d | %.3f | %d | %d | %s |%n", a.fileBytes(), a.tool(), a.repeat(),
                    a.seconds(), a.peakHeapAfterGcMb(), a.peakRssBytes(), a.failure() == null ? "" : a.failure()));
        }
        return md.toString();
    }
}
