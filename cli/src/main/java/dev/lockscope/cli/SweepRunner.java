package dev.lockscope.cli;

import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.scale.PointRun;
import dev.lockscope.report.model.ReportBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the swept command once for one point: placeholders filled in, confined to the point's CPUs,
 * under the agent, output kept in a log next to the recording; then reads the throughput from the
 * output and the contended locks from the recording.
 */
final class SweepRunner {
    /** How long a JVM asked to stop may take to write its recording before it is killed. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(60);

    private final List<String> template;
    private final Path outputDir;
    private final Path agentJar;
    private final CpuSet machine;
    private final boolean pinCpus;
    private final ThroughputPattern throughput;
    private final Duration duration;
    private final Duration timeout;
    private final boolean repeated;
    private final Consumer<String> notes;
    private volatile Process current;
    private volatile boolean stopping;

    SweepRunner(List<String> template, Path outputDir, Path agentJar, CpuSet machine, boolean pinCpus,
                ThroughputPattern throughput, Duration duration, Duration timeout, boolean repeated,
                Consumer<String> notes) {
        this.template = List.copyOf(template);
        this.outputDir = outputDir;
        this.agentJar = agentJar;
        this.machine = machine;
        this.pinCpus = pinCpus;
        this.throughput = throughput;
        this.duration = duration;
        this.timeout = timeout;
        this.repeated = repeated;
        this.notes = notes;
    }

    /** Replaces {threads}, {cpus} and {seconds} in every word of the command. */
    static List<String> fill(List<String> template, int threads, int cpus, Duration duration) {
        String seconds = duration.toMillis() % 1000 == 0 ? Long.toString(duration.toSeconds())
                : String.format(Locale.ROOT, "%.3f", duration.toMillis() / 1000.0);
        List<String> out = new ArrayList<>(template.size());
        for (String word : template) {
            out.add(word.replace("{threads}", Integer.toString(threads)).replace("{cpus}", Integer.toString(cpus))
                    .replace("{seconds}", seconds));
        }
        return out;
    }

    /** The file name stem of a run: {@code t4-c2} or, with repeats, {@code t4-c2-r1}. */
    String stem(int threads, int cpus, int repeat) {
        return "t" + threads + "-c" + cpus + (repeated ? "-r" + repeat : "");
    }

    /** Asks the run in progress to stop (it writes its recording) and fails every later one. Thread-safe. */
    void stop() {
        stopping = true;
        Process p = current;
        if (p != null) {
            p.destroy();
        }
    }

    /** One run of the point: its throughput, and its contended locks from its recording. */
    PointRun run(int threads, int cpus, int repeat) {
        if (stopping) {
            return PointRun.failed(threads, cpus, repeat, null, "interrupted");
        }
        String stem = stem(threads, cpus, repeat);
        Path recording = outputDir.resolve(stem + ".jfr");
        Path log = outputDir.resolve(stem + ".log");
        List<String> jvmOptions = new ArrayList<>(List.of("-javaagent:" + agentJar + "=file=" + recording + ",quiet,report=off"));
        if (pinCpus) {
            jvmOptions.add("-XX:ActiveProcessorCount=" + cpus);
        }
        ProcessBuilder pb = ChildJvm.withJvmOptions(fill(template, threads, cpus, duration), jvmOptions);
        if (pinCpus) {
            List<String> pinned = new ArrayList<>(List.of("taskset", "-c", machine.tasksetList(cpus)));
            pinned.addAll(pb.command());
            pb.command(pinned);
        }
        try {
            // the redirect opens the log through a symlink: a file of our own (0600) is there first
            dev.lockscope.core.OutputFiles.write(log, new byte[0], dev.lockscope.core.OutputFiles.OWNER_ONLY);
        } catch (IOException e) {
            return PointRun.failed(threads, cpus, repeat, null, "cannot write " + log + ": " + e.getMessage());
        }
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        String failure = execute(pb, log);
        Path written = Files.isRegularFile(recording) ? recording : null;
        if (failure != null) {
            return PointRun.failed(threads, cpus, repeat, written, failure);
        }
        String output = readLog(log);
        OptionalDouble x = throughput.find(output);
        if (x.isEmpty()) {
            return PointRun.failed(threads, cpus, repeat, written,
                    "no throughput in its output (regex " + throughput.regex() + "; see " + log.getFileName() + ")");
        }
        if (written == null) {
            notes.accept(stem + ": no recording was written (did the command start a JVM?)");
            return new PointRun(threads, cpus, repeat, x.getAsDouble(), null, null, 0, List.of());
        }
        try {
            ReportBuilder.SweepPoint point = ReportBuilder.sweepPoint(recording);
            return new PointRun(threads, cpus, repeat, x.getAsDouble(), recording, null, point.durationNanos(), point.locks());
        } catch (RecordingException e) {
            notes.accept(stem + ": " + e.getMessage() + "; its locks are unknown");
            return new PointRun(threads, cpus, repeat, x.getAsDouble(), recording, null, 0, List.of());
        }
    }

    /** Runs the child to its end; returns why the run does not count, or null. */
    private String execute(ProcessBuilder pb, Path log) {
        Process child;
        try {
            child = pb.start();
        } catch (IOException e) {
            throw new UserError("cannot start '" + pb.command().get(0) + "': " + e.getMessage());
        }
        current = child;
        try {
            if (stopping) {
                child.destroy(); // stop() ran between the check in run() and the start
            }
            boolean ended = child.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                stopGently(child);
                return "timed out after " + describe(timeout) + " (see " + log.getFileName() + ")";
            }
            if (stopping) {
                return "interrupted";
            }
            int rc = child.exitValue();
            return rc == 0 ? null : "exit code " + rc + " (see " + log.getFileName() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopGently(child);
            return "interrupted";
        } finally {
            current = null;
        }
    }

    private static void stopGently(Process child) {
        child.destroy(); // SIGTERM: the agent's shutdown hook still writes the recording
        try {
            if (!child.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String readLog(Path log) {
        try {
            return new String(Files.readAllBytes(log), StandardCharsets.UTF_8); // lenient: any bytes
        } catch (IOException e) {
            return "";
        }
    }

    static String describe(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
