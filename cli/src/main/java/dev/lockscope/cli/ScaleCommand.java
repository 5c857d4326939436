package dev.lockscope.cli;

import dev.lockscope.analysis.scale.LayerClassifier;
import dev.lockscope.analysis.scale.PointRun;
import dev.lockscope.analysis.scale.SweepAnalysis;
import dev.lockscope.analysis.scale.SweepResult;
import dev.lockscope.report.scale.ScaleHtmlReport;
import dev.lockscope.report.scale.ScaleJsonReport;
import dev.lockscope.report.scale.ScaleTextReport;
import dev.lockscope.report.scale.SweepContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

@Command(name = "scale", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Scalability sweep: run a command at rising thread counts (and CPU counts) under the agent, "
                + "compare its throughput with the linear ideal, find the knee, and rank the locks whose wait grows "
                + "across it, layer by layer (application, middleware, JDK, native; the top-down method of Guerin et al., see README References).",
                "",
                "The command must contain {threads}; {seconds} (the --duration) and {cpus} are filled in too. It must "
                        + "print its throughput, by default as a line 'throughput: X ops/s' (see --throughput-regex).",
                "",
                "Example: lockscope scale --threads 1,2,4,8 --duration 5s -o sweep -- "
                        + "java -jar app.jar --threads {threads} --seconds {seconds}",
                "",
                "Every run's recording (<dir>/t<threads>-c<cpus>.jfr) and output (.log) are kept; scale.txt, "
                        + "scale.json and scale.html in <dir> are rewritten after every point, so an interrupted "
                        + "sweep (Ctrl-C) keeps its finished points. A failed point (non-zero exit, no throughput "
                        + "in the output, time-out) is reported and the sweep goes on.",
                ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:at least one point succeeded", "1:no point succeeded", "2:bad options",
                "130:interrupted (finished points are kept)"})
final class ScaleCommand implements Callable<Integer> {

    @Option(names = "--threads", paramLabel = "N", split = ",", defaultValue = "1,2,4,8,16",
            description = "Thread counts to sweep (default: ${DEFAULT-VALUE}).")
    List<String> threads;

    @Option(names = "--cpus", paramLabel = "N", split = ",",
            description = "CPU counts to sweep, each thread count on each: runs are confined with taskset -c to the "
                    + "first N CPUs and -XX:ActiveProcessorCount=N (default: all CPUs, unconfined).")
    List<String> cpus;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
            description = "Runs per point; throughput and waits are averaged (default: ${DEFAULT-VALUE}).")
    String repeatOption;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "20s",
            description = "Length of one run, put in {seconds}, e.g. 500ms, 20s, 2m (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = "--timeout", paramLabel = "DURATION",
            description = "A run still going after this long is stopped and counted as failed "
                    + "(default: 3 × duration + 60s).")
    String timeout;

    @Mixin
    ThroughputMixin throughput;

    @Option(names = "--efficiency-threshold", paramLabel = "E", defaultValue = "0.8",
            description = "The knee is the first point whose efficiency (speedup / ideal speedup) is below E "
                    + "(default: ${DEFAULT-VALUE}).")
    String thresholdOption;

    @Option(names = "--middleware", paramLabel = "PREFIX", split = ",",
            description = "Package prefixes to count as middleware besides the well-known frameworks, "
                    + "e.g. com.acme.platform.")
    List<String> middleware = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "DIR",
            description = "Directory for the recordings and results (default: lockscope-scale-<date>-<time>).")
    Path output;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "What to print at the end: text, json or html (all three are written to DIR; "
                    + "default: ${DEFAULT-VALUE}).")
    String format;

    @Parameters(arity = "1..*", paramLabel = "COMMAND",
            description = "The command to sweep, with {threads}, e.g. java -jar app.jar --threads {threads}.")
    List<String> command;

    @Override
    public Integer call() {
        // Values are parsed here rather than by picocli, so a mistake is one line like every other.
        List<Integer> threadCounts = positiveDistinct(threads, "--threads");
        int repeat = positiveDistinct(List.of(repeatOption), "--repeat").get(0);
        double threshold = parseThreshold(thresholdOption);
        if (!List.of("text", "json", "html").contains(format)) {
            throw new UserError("--format must be text, json or html, not '" + format + "'");
        }
        if (command.stream().noneMatch(w -> w.contains("{threads}"))) {
            throw new UserError("the command must contain {threads}, where the thread count goes: " + String.join(" ", command));
        }
        Duration runLength = parseDuration(duration, "--duration");
        Duration limit = timeout != null ? parseDuration(timeout, "--timeout") : runLength.multipliedBy(3).plusSeconds(60);
        ThroughputPattern pattern = throughput.pattern();
        CpuSet machine = CpuSet.ofThisProcess();
        List<String> notes = Collections.synchronizedList(new ArrayList<>());
        List<Integer> cpuCounts = cpus == null ? List.of(machine.count()) : positiveDistinct(cpus, "--cpus");
        if (cpus != null) {
            requireTaskset();
            for (int c : cpuCounts) {
                if (c > machine.count()) {
                    String note = String.format(Locale.ROOT, "asked for %d CPUs but this machine lets lockscope use %d: the "
                            + "%d-CPU points run on all %d (the JVM is still told %d)", c, machine.count(), c, machine.count(), c);
                    notes.add(note);
                    System.err.println("lockscope: " + note);
                }
            }
        }
        Path dir = outputDir();
        SweepAnalysis analysis = new SweepAnalysis(threshold, new LayerClassifier(middleware));
        SweepRunner runner = new SweepRunner(command, dir, EmbeddedJars.agent(), machine, cpus != null, pattern, runLength,
                limit, repeat > 1, notes::add);

        // Ctrl-C: stop the run in progress (its JVM writes its recording), write what is finished, then exit.
        CountDownLatch written = new CountDownLatch(1);
        Thread onInterrupt = new Thread(() -> {
            notes.add("the sweep was interrupted; points not run are missing");
            runner.stop();
            try {
                written.await(90, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "lockscope-scale-stop");
        Runtime.getRuntime().addShutdownHook(onInterrupt);

        List<PointRun> runs = new ArrayList<>();
        int total = cpuCounts.size() * threadCounts.size() * repeat;
        int index = 0;
        boolean interrupted = false;
        SweepResult result = analysis.analyse(runs);
        try {
            System.err.printf(Locale.ROOT, "lockscope: sweeping %d points (%s) into %s%n", total,
                    describe(threadCounts, cpuCounts), dir);
            sweep:
            for (int c : cpuCounts) {
                for (int t : threadCounts) {
                    for (int r = 0; r < repeat; r++) {
                        index++;
                        System.err.printf(Locale.ROOT, "lockscope: [%d/%d] %d threads, %d CPUs%s ...%n", index, total, t, c,
                                repeat > 1 ? ", run " + (r + 1) + " of " + repeat : "");
                        PointRun run = runner.run(t, c, r);
                        if ("interrupted".equals(run.failure())) {
                            interrupted = true;
                            break sweep; // an interrupted run is not a measurement
                        }
                        runs.add(run);
                        System.err.println("lockscope:     " + outcome(run));
                        result = analysis.analyse(runs);
                        write(dir, result, context(dir, notes));
                    }
                }
            }
            result = analysis.analyse(runs);
            write(dir, result, context(dir, notes));
            if (interrupted) {
                // before releasing the Ctrl-C hook: once it returns the JVM exits, mid-line if need be
                System.err.printf(Locale.ROOT, "lockscope: interrupted after %d of %d runs; results so far in %s%n",
                        runs.size(), total, dir);
                System.err.flush();
            }
        } finally {
            written.countDown();
        }
        if (interrupted) {
            return 130;
        }
        Runtime.getRuntime().removeShutdownHook(onInterrupt);
        SweepContext ctx = context(dir, notes);
        System.out.print(switch (format) {
            case "json" -> ScaleJsonReport.render(result, ctx);
            case "html" -> ScaleHtmlReport.render(result, ctx);
            default -> ScaleTextReport.render(result, ctx);
        });
        System.err.println("lockscope: results in " + dir.resolve("scale.html") + " (also scale.txt, scale.json)");
        return result.points().stream().anyMatch(p -> p.ok()) ? 0 : 1;
    }

    /** The context as of now: notes arrive while the sweep runs (and from the Ctrl-C hook). */
    private SweepContext context(Path dir, List<String> notes) {
        synchronized (notes) {
            return new SweepContext(dir, command, List.copyOf(notes));
        }
    }

    private static String outcome(PointRun run) {
        String rec = run.recording() == null ? "no recording" : run.recording().getFileName().toString();
        return run.ok()
                ? String.format(Locale.ROOT, "%.1f ops/s (%s, %d contended locks)", run.throughput(), rec, run.locks().size())
                : "FAILED: " + run.failure();
    }

    private static String describe(List<Integer> threads, List<Integer> cpus) {
        return "threads " + join(threads) + " on " + join(cpus) + " CPUs";
    }

    private static String join(List<Integer> values) {
        return String.join(",", values.stream().map(String::valueOf).toList());
    }

    /** Writes the three result files, each replaced atomically so a reader never sees half a file. */
    private static void write(Path dir, SweepResult result, SweepContext ctx) {
        writeFile(dir.resolve("scale.txt"), ScaleTextReport.render(result, ctx));
        writeFile(dir.resolve("scale.json"), ScaleJsonReport.render(result, ctx));
        writeFile(dir.resolve("scale.html"), ScaleHtmlReport.render(result, ctx));
    }

    private static void writeFile(Path file, String content) {
        try {
            dev.lockscope.core.OutputFiles.write(file, content.getBytes(StandardCharsets.UTF_8), dev.lockscope.core.OutputFiles.OWNER_ONLY);
        } catch (IOException e) {
            throw new UserError("cannot write " + file + ": " + e.getMessage());
        }
    }

    private Path outputDir() {
        Path dir = (output != null ? output
                : Path.of("lockscope-scale-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))))
                .toAbsolutePath().normalize();
        if (dir.toString().contains(",")) {
            throw new UserError("the output directory may not contain a comma (it goes into the agent's options): " + dir);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UserError("cannot create output directory " + dir + ": " + e.getMessage());
        }
        return dir;
    }

    private static List<Integer> positiveDistinct(List<String> values, String option) {
        if (values == null || values.isEmpty()) {
            throw new UserError(option + " needs at least one number");
        }
        LinkedHashSet<Integer> out = new LinkedHashSet<>();
        for (String text : values) {
            int v;
            try {
                v = Integer.parseInt(text.trim());
            } catch (NumberFormatException e) {
                throw new UserError(option + " takes whole numbers, not '" + text + "'");
            }
            if (v < 1) {
                throw new UserError(option + " values must be at least 1, not " + v);
            }
            out.add(v);
        }
        return List.copyOf(out);
    }

    private static double parseThreshold(String text) {
        try {
            double e = Double.parseDouble(text.trim());
            if (e > 0 && e <= 1) {
                return e;
            }
        } catch (NumberFormatException notANumber) {
            // the message below
        }
        throw new UserError("--efficiency-threshold must be a number above 0 and at most 1, not '" + text + "'");
    }

    static Duration parseDuration(String text, String option) {
        return Durations.parse(text, option, "s");
    }

    private static void requireTaskset() {
        try {
            Process p = new ProcessBuilder("taskset", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UserError("--cpus needs the taskset command (util-linux), which was not found");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
