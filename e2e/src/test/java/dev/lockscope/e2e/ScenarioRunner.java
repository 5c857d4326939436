package dev.lockscope.e2e;

import dev.lockscope.analysis.blame.BlameResult;
import dev.lockscope.analysis.blame.SpanBySpanBlame;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a demo scenario in a child JVM under the lockscope agent and analyses its recording. The
 * child's java is {@code -Dlockscope.test.java=/path/to/bin/java}, by default the running JVM's.
 */
final class ScenarioRunner {
    private static final long CHILD_TIMEOUT_SECONDS = 120;

    /** A finished run: the recording, its blame and what the workload says it did. */
    record Run(Path file, LockRecording recording, BlameResult blame, TruthLog truth, String output) {
    }

    private ScenarioRunner() {
    }

    static String javaBinary() {
        String configured = System.getProperty("lockscope.test.java");
        return configured != null && !configured.isBlank() ? configured
                : Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static Path jar(String property) {
        String p = System.getProperty(property);
        if (p == null) {
            throw new IllegalStateException("system property " + property + " is not set (run through Maven)");
        }
        Path path = Path.of(p);
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException(path + " does not exist: run mvn -B -q package -DskipTests first");
        }
        return path;
    }

    /** Where runs keep their recordings and output: under target/, so a failed run can be looked at. */
    static Path workDir(String name) throws IOException {
        Path dir = Path.of("target", "blame-e2e", name).toAbsolutePath();
        Files.createDirectories(dir);
        return dir;
    }

    /**
     * Runs the scenario until its own timeline matches its script (at most {@link #ATTEMPTS} times): a
     * busy machine can delay a thread's start or wake-up by tens of milliseconds, and then the
     * scenario is not the one whose answer is known.
     */
    static Run runAsScripted(String pattern, double seconds, java.util.function.Predicate<TruthLog> asScripted)
            throws Exception {
        return runUntil(pattern, seconds, run -> asScripted.test(run.truth()));
    }

    /** {@link #runAsScripted} with a check that may also look at the recording. */
    static Run runUntil(String pattern, double seconds, java.util.function.Predicate<Run> asScripted) throws Exception {
        StringBuilder rejected = new StringBuilder();
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Run run = replayDir() != null ? replay(pattern, attempt) : run(pattern, seconds, workDir(pattern + "-" + attempt));
            String late = lateWaiter(run);
            if (late == null && asScripted.test(run)) {
                return run;
            }
            rejected.append(late == null ? "" : late + "\n").append(run.output());
        }
        throw new AssertionError("the machine is too busy: " + pattern + " never ran as scripted in " + ATTEMPTS
                + " attempts:\n" + rejected);
    }

    static final int ATTEMPTS = 3;
    /** How soon after asking for its lock a waiter must have begun to wait for the run to be the one scripted. */
    static final double WAITED_WITHIN_MS = 5;

    /**
     * A waiter that began to wait for its lock more than {@link #WAITED_WITHIN_MS} after it asked (its {@code request}
     * mark), said as a sentence, or null. On a loaded machine a thread descheduled between its request and its park or
     * blocked entry (16 ms seen on CI's 2 cores) waits unrecorded meanwhile, which no lock profiler sees: the blame
     * windows the tests compute from the marks then do not hold, and the run is not the one scripted.
     */
    static String lateWaiter(Run run) {
        Map<String, Long> acquired = run.truth().all("acquired");
        for (Map.Entry<String, Long> asked : run.truth().all("request").entrySet()) {
            // its waits for that request: from the request to when it had the lock (none if it got it at once)
            long from = asked.getValue();
            long to = acquired.getOrDefault(asked.getKey(), Long.MAX_VALUE);
            long first = Long.MAX_VALUE;
            for (ParkWait p : run.recording().parks()) {
                if (p.thread().name().equals(asked.getKey()) && p.beginNanos() >= from && p.beginNanos() <= to) {
                    first = Math.min(first, p.beginNanos());
                }
            }
            for (MonitorEnter e : run.recording().monitorEnters()) {
                if (e.thread().name().equals(asked.getKey()) && e.beginNanos() >= from && e.beginNanos() <= to) {
                    first = Math.min(first, e.beginNanos());
                }
            }
            if (first != Long.MAX_VALUE && first - asked.getValue() > WAITED_WITHIN_MS * 1e6) {
                return String.format(java.util.Locale.ROOT, "%s began to wait %.1f ms after it asked for the lock",
                        asked.getKey(), (first - asked.getValue()) / 1e6);
            }
        }
        return null;
    }

    /**
     * {@code -Dlockscope.test.recordings=DIR}: analyse recordings made earlier by
     * {@code e2e/record-blame-scenarios.sh} ({@code PATTERN-N.jfr} and its output {@code PATTERN-N.out})
     * instead of running the scenarios.
     */
    static Path replayDir() {
        String dir = System.getProperty("lockscope.test.recordings");
        return dir == null || dir.isBlank() ? null : Path.of(dir);
    }

    private static Run replay(String pattern, int attempt) throws Exception {
        Path file = replayDir().resolve(pattern + "-" + attempt + ".jfr");
        String output = Files.readString(replayDir().resolve(pattern + "-" + attempt + ".out"), StandardCharsets.UTF_8);
        LockRecording recording = LockRecording.collect(file);
        return new Run(file, recording, spanBySpan(recording), TruthLog.parse(output), output);
    }

    static Run run(String pattern, double seconds, Path dir) throws Exception {
        return run(pattern, seconds, dir, List.of());
    }

    /** @param scenarioArgs options of the scenario itself ({@code --threads 4 --split 3:7}) */
    static Run run(String pattern, double seconds, Path dir, List<String> scenarioArgs) throws Exception {
        return run(pattern, seconds, dir, scenarioArgs, "");
    }

    /** @param agentOptions more agent options, each with a leading comma ({@code ",deep=app.**"}) */
    static Run run(String pattern, double seconds, Path dir, List<String> scenarioArgs, String agentOptions) throws Exception {
        if (replayDir() != null) {
            return replay(pattern, 1);
        }
        Path file = dir.resolve(pattern + ".jfr");
        Files.deleteIfExists(file);
        Path repository = Files.createDirectories(dir.resolve("jfr-repository")); // private: nobody else cleans it up
        List<String> cmd = new ArrayList<>(List.of(javaBinary(),
                "-XX:FlightRecorderOptions:repository=" + repository,
                "-javaagent:" + jar("lockscope.agent.jar") + "=file=" + file + ",quiet,report=off" + agentOptions,
                "-cp", jar("lockscope.demo.jar").toString(), "dev.lockscope.demo.DemoMain", pattern,
                "--seconds", Double.toString(seconds)));
        cmd.addAll(scenarioArgs);
        String output = exec(cmd, dir);
        LockRecording recording = LockRecording.collect(file);
        return new Run(file, recording, spanBySpan(recording), TruthLog.parse(output), output);
    }

    /** Owner blame with one entry per span, so that tests can check where each span lies. */
    private static BlameResult spanBySpan(LockRecording recording) {
        return SpanBySpanBlame.of(recording);
    }

    /** Runs a command, returns its stdout; fails with its output when it does not exit with 0. */
    static String exec(List<String> cmd, Path dir) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "child", ".out");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!p.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError("exit " + p.exitValue() + " from " + cmd + ":\n" + text);
        }
        return text;
    }
}
