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
            StringBuilder options = new StringBuilder(env.getOrDefault("JAVA_TOOL_OPTIONS", ""));
            for (String option : jvmOptions) {
                options.append(options.length() == 0 ? "" : " ").append(quoteForToolOptions(option));
            }
            env.put("JAVA_TOOL_OPTIONS", options.toString());
        }
        return pb.command(cmd);
    }

    /**
     * One option for JAVA_TOOL_OPTIONS, which the JVM splits at white space unless it is inside single
     * or double quotes (HotSpot's Arguments::parse_options_buffer, JDK 9+): a path with a space
     * would otherwise break the option in two and the JVM would not start.
     */
    static String quoteForToolOptions(String option) {
        if (option.chars().noneMatch(Character::isWhitespace)) {
            return option;
        }
        if (option.indexOf('\'') < 0) {
            return "'" + option + "'";
        }
        if (option.indexOf('"') < 0) {
            return '"' + option + '"';
        }
        throw new UserError("a path with a space and both kinds of quotes cannot be passed in JAVA_TOOL_OPTIONS: " + option);
    }

    /** One line after the run: where the recording is and what to do next. */
    static void announce(Path recording) {
        long size = -1;
        try {
            size = Files.isRegularFile(recording) ? Files.size(recording) : -1;
        } catch (IOException ignored) {
            // size stays unknown
        }
        if (size > 0) {
            System.err.printf(Locale.ROOT, "lockscope: recording %s (%.1f MB); explore it with: lockscope report %s%n",
                    recording, size / 1e6, recording);
            return;
        }
        String full = diskFull(recording);
        System.err.println("lockscope: no recording was written to " + recording + " ("
                + (full != null ? full : "the command did not start a JVM with the agent, or it was killed") + ")");
    }

    /**
     * "its disk is full (12.0 kB free)" when less than 1 MB is free where {@code file} lies, otherwise
     * null: a recording cut short by a full disk is not called killed or truncated.
     */
    static String diskFull(Path file) {
        try {
            long usable = Files.getFileStore(file.toAbsolutePath().getParent()).getUsableSpace();
            return usable < 1_000_000 ? String.format(Locale.ROOT, "its disk is full (%.1f kB free)", usable / 1e3) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
