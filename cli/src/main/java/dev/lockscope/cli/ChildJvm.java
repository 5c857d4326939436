package dev.lockscope.cli;

import dev.lockscope.sched.SchedCollector;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Runs a user's command with the agent injected, and waits for it. */
final class ChildJvm {
    private ChildJvm() {
    }

    /** The java of the JVM running lockscope. */
    static String currentJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Runs {@code command} with {@code -javaagent:agent=args}: put right after the executable when it is
     * {@code java}, otherwise passed through JAVA_TOOL_OPTIONS so wrapper scripts pick it up.
     *
     * @return the command's exit code
     */
    static int run(List<String> command, Path agentJar, String agentArgs) {
        return run(command, agentJar, agentArgs, null);
    }

    /**
     * The same, also collecting scheduling data of the child JVM into {@code schedFile} (when not
     * null) from its start until it exits. Only when the command is java: perf follows one process.
     */
    static int run(List<String> command, Path agentJar, String agentArgs, Path schedFile) {
        boolean isJava = Path.of(command.get(0)).getFileName().toString().equals("java");
        ProcessBuilder pb = withJvmOptions(command, List.of("-javaagent:" + agentJar + "=" + agentArgs)).inheritIO();
        Process child;
        try {
            child = pb.start();
        } catch (IOException e) {
            throw new UserError("cannot start '" + command.get(0) + "': " + e.getMessage());
        }
        SchedCollector sched = null;
        if (schedFile != null) {
            if (!isJava) {
                System.err.println("lockscope: --sched needs COMMAND to be java itself; no scheduling data recorded");
            } else {
                try {
                    sched = SchedCollector.start(child.pid(), schedFile);
                } catch (RuntimeException e) {
                    System.err.println("lockscope: no scheduling data: " + e.getMessage());
                }
            }
        }
        SchedCollector collector = sched;
        // Ctrl-C or SIGTERM to lockscope: let the child shut down (it prints its table and writes the
        // recording in its own shutdown hooks) before this JVM goes.
        Thread waitForChild = new Thread(() -> {
            if (child.isAlive()) {
                child.destroy();
                try {
                    child.waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "lockscope-wait-for-child");
        Runtime.getRuntime().addShutdownHook(waitForChild);
        try {
            int rc = child.waitFor();
            Runtime.getRuntime().removeShutdownHook(waitForChild);
            if (collector != null) {
                try {
                    collector.stop();
                    System.err.println("lockscope: scheduling data " + schedFile + " (" + collector.source()
                            + "); see it with: lockscope bottle " + schedFile);
                } catch (RuntimeException e) {
                    System.err.println("lockscope: scheduling data incomplete: " + e.getMessage());
                }
            }
            return rc;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        } catch (IllegalStateException shuttingDown) {
            return 130;
        }
    }

    /**
     * A process for {@code command} with {@code jvmOptions} added: right after the executable when it
     * is {@code java}, otherwise appended to JAVA_TOOL_OPTIONS so wrapper scripts pick them up.
     */
    static ProcessBuilder withJvmOptions(List<String> command, List<String> jvmOptions) {
        List<String> cmd = new ArrayList<>(command);
        ProcessBuilder pb = new ProcessBuilder();
        String exe = Path.of(cmd.get(0)).getFileName().toString();
        if (exe.equals("java")) {
            cmd.addAll(1, jvmOptions);
        } else {
            Map<String, String> env = pb.environment();
            String existing = env.getOrDefault("JAVA_TOOL_OPTIONS", "");
            env.put("JAVA_TOOL_OPTIONS", (existing + " " + String.join(" ", jvmOptions)).trim());
        }
        return pb.command(cmd);
    }

    /** One line after the run: where the recording is and what to do next. */
    static void announce(Path recording) {
        if (Files.isRegularFile(recording)) {
            long size = 0;
            try {
                size = Files.size(recording);
            } catch (IOException ignored) {
                // size stays 0
            }
            System.err.printf(Locale.ROOT, "lockscope: recording %s (%.1f MB); explore it with: lockscope report %s%n",
                    recording, size / 1e6, recording);
        } else {
            System.err.println("lockscope: no recording was written to " + recording
                    + " (the command did not start a JVM with the agent, or it was killed)");
        }
    }
}
