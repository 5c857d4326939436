package dev.lockscope.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** Runs the real lockscope jars in child processes, as a user would. */
final class Proc {
    static final Path LOCKSCOPE_JAR = Path.of(System.getProperty("lockscope.jar", "../cli/target/lockscope.jar")).toAbsolutePath();
    static final Path AGENT_JAR = Path.of(System.getProperty("lockscope.agent.jar", "../agent/target/lockscope-agent.jar")).toAbsolutePath();
    /** The performance harness's jar: its LibraryWorkloads run real libraries from Maven Central. */
    static final Path BENCH_JAR = Path.of(System.getProperty("lockscope.bench.jar", "../bench/target/lockscope-bench.jar")).toAbsolutePath();
    static final Path DEMO_JAR = Path.of(System.getProperty("lockscope.demo.jar", "../demo/target/lockscope-demo.jar")).toAbsolutePath();
    /** The JVM that runs the profiled workloads: -Dlockscope.test.java=..., default the one running the tests. */
    static final String JAVA = System.getProperty("lockscope.test.java",
            Path.of(System.getProperty("java.home"), "bin", "java").toString());

    final Process process;
    final Path stdout;
    final Path stderr;

    private Proc(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    static Proc start(Path workDir, List<String> command) throws IOException {
        Path out = Files.createTempFile(workDir, "out", ".txt");
        Path err = Files.createTempFile(workDir, "err", ".txt");
        Process p = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new Proc(p, out, err);
    }

    /** Runs to completion (or fails the test after {@code timeoutSeconds}). */
    static Proc run(Path workDir, int timeoutSeconds, List<String> command) throws IOException, InterruptedException {
        Proc p = start(workDir, command);
        if (!p.process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.process.destroyForcibly();
            throw new AssertionError("timed out after " + timeoutSeconds + " s: " + command + "\nstderr:\n" + p.err());
        }
        return p;
    }

    /** {@code java -jar lockscope.jar args...}, run with the test's own JVM (the CLI needs JDK 17+). */
    static Proc lockscope(Path workDir, int timeoutSeconds, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", LOCKSCOPE_JAR.toString()));
        cmd.addAll(List.of(args));
        return run(workDir, timeoutSeconds, cmd);
    }

    /** This module's test classes, a class path for the workloads the tests define. */
    static final String TEST_CLASSES = Path.of("target", "test-classes").toAbsolutePath().toString();

    /**
     * {@code lockscope record --no-html OPTIONS -o JFR -- java -cp CLASS_PATH MAIN ARGS}, run in {@code jfr}'s
     * folder (made if missing), a recording left there by an earlier run deleted first.
     */
    static Proc record(Path jfr, int timeoutSeconds, List<String> options, String classPath, String main, String... args)
            throws IOException, InterruptedException {
        Files.createDirectories(jfr.getParent());
        Files.deleteIfExists(jfr);
        List<String> cmd = new ArrayList<>(List.of("record", "--no-html"));
        cmd.addAll(options);
        cmd.addAll(List.of("-o", jfr.toString(), "--", JAVA, "-cp", classPath, main));
        cmd.addAll(List.of(args));
        return lockscope(jfr.getParent(), timeoutSeconds, cmd.toArray(String[]::new));
    }

    /** A demo workload in a JVM of {@link #JAVA}, with the agent when {@code agentArgs} is not null. */
    static List<String> demoCommand(String agentArgs, String... demoArgs) {
        List<String> cmd = new ArrayList<>(List.of(JAVA));
        if (agentArgs != null) {
            cmd.add("-javaagent:" + AGENT_JAR + "=" + agentArgs);
        }
        // JDK 21+ warns on dynamic attach unless this is set; JDK 17 does not know the flag.
        cmd.add("-XX:+IgnoreUnrecognizedVMOptions");
        cmd.add("-XX:+EnableDynamicAgentLoading");
        cmd.addAll(List.of("-jar", DEMO_JAR.toString()));
        cmd.addAll(List.of(demoArgs));
        return cmd;
    }

    /** Polls {@code done} every 50 ms until it holds; fails the test, naming {@code what}, after {@code seconds}. */
    static void await(int seconds, String what, Callable<Boolean> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!done.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + seconds + " s: " + what);
            }
            Thread.sleep(50);
        }
    }

    /**
     * Waits until this process runs a thread named {@code name} (Linux: the names in /proc), i.e. its main method
     * has got that far, so the JVM is up and answers an attach; fails the test if it exits first.
     */
    void awaitThread(String name) throws Exception {
        await(60, "thread " + name + " in pid " + process.pid(), () -> {
            if (!process.isAlive()) {
                throw new AssertionError("exited with " + process.exitValue() + " before starting " + name + ": " + err());
            }
            return hasThread(process.toHandle(), name);
        });
    }

    /** Whether {@code process} runs a thread named {@code name} (Linux: the names in /proc; false once it has ended). */
    /**
     * Whether SIGINT is ignored in this JVM, so in every process it starts: a shell without job control starts its
     * background commands so (`./.ci/run &`), and a JVM keeps an ignored SIGINT ignored, so no Ctrl-C reaches them.
     */
    static boolean sigintIgnored() throws IOException {
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << (2 - 1))) != 0; // signal 2, bit 1
            }
        }
        return false;
    }

    static boolean hasThread(ProcessHandle process, String name) throws IOException {
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        try (var ts = Files.list(tasks)) {
            return ts.anyMatch(t -> {
                try {
                    return Files.readString(t.resolve("comm")).strip().equals(name);
                } catch (IOException gone) {
                    return false; // the thread ended meanwhile
                }
            });
        } catch (java.nio.file.NoSuchFileException ended) {
            return false;
        }
    }

    int exitCode() {
        return process.exitValue();
    }

    String out() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    String err() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }
}
