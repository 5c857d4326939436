package dev.lockscope.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code lockscope}: the command-line entry point. Each subcommand is a thin class of its own. */
@Command(name = "lockscope", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Lock-contention profiler for the JVM: which lock is the bottleneck, who holds it while "
                + "others wait and in what code.",
        subcommands = {RecordCommand.class, AttachCommand.class, DumpCommand.class, ReportCommand.class, MergeCommand.class,
                BlameCommand.class, ProfileCommand.class, DiffCommand.class, DemoCommand.class, BottleCommand.class, ScaleCommand.class, WhatIfCommand.class,
                CommandLine.HelpCommand.class})
public final class LockscopeCli {
    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the CLI; user errors become one "lockscope: ..." line and exit code 2, never a stack trace. */
    public static int execute(String... args) {
        return execute(new CommandLine(new LockscopeCli()), args);
    }

    /**
     * Runs {@code cli}; a heap too small for the command ({@link OutOfMemoryError} on any of its
     * threads' way back here) is one line naming {@code LOCKSCOPE_JAVA_OPTS} and exit 1. By the time it
     * is caught here the command's frames, and with them everything it held, are gone.
     */
    static int execute(CommandLine cli, String... args) {
        ProgressLine.start();
        try {
            return run(cli, args);
        } catch (OutOfMemoryError e) {
            System.err.println(outOfMemory(Runtime.getRuntime().maxMemory()));
            return 1;
        } finally {
            ProgressLine.stop();
        }
    }

    /** The line for a heap too small: how large it was, and how to give lockscope's JVM more (4 times, at least 1 GB). */
    static String outOfMemory(long maxHeapBytes) {
        long mb = maxHeapBytes / (1024 * 1024);
        long gb = Math.max(1, Long.highestOneBit(Math.max(1, mb)) * 4 / 1024);
        return "lockscope: out of memory: lockscope's heap of " + mb + " MB is too small for this; give it more, "
                + "e.g. LOCKSCOPE_JAVA_OPTS=-Xmx" + gb + "g ./lockscope ...";
    }

    private static int run(CommandLine cli, String... args) {
        // `lockscope record java -Xmx1g -jar app.jar`: everything from the command on is the command's.
        cli.getSubcommands().get("record").setStopAtPositional(true);
        cli.getSubcommands().get("scale").setStopAtPositional(true);
        // A mistyped option or missing argument: one line and a pointer to --help, not the whole usage.
        cli.setParameterExceptionHandler((ex, args1) -> {
            CommandLine cmd = ex.getCommandLine();
            cmd.getErr().println("lockscope: " + ex.getMessage() + " (see: " + cmd.getCommandSpec().qualifiedName() + " --help)");
            return 2;
        });
        cli.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            if (causedByOutOfMemory(ex)) {
                throw new OutOfMemoryError(); // a library wrapped it: the one line of execute
            }
            if (ex instanceof UserError) {
                cmd.getErr().println("lockscope: " + ex.getMessage());
                return 2;
            }
            cmd.getErr().println("lockscope: internal error: " + ex
                    + " (rerun with LOCKSCOPE_DEBUG=1 for the stack trace)");
            if (System.getenv("LOCKSCOPE_DEBUG") != null) {
                ex.printStackTrace(cmd.getErr());
            }
            return 3;
        });
        int rc = cli.execute(args);
        // System.out swallows write errors (a full disk, a closed pipe, > /dev/full): a report that was not
        // written is a failure, not exit 0
        cli.getOut().flush();
        System.out.flush();
        if (cli.getOut().checkError() | System.out.checkError()) {
            cli.getErr().println("lockscope: could not write the output (disk full or closed pipe?)");
            return rc == 0 ? 1 : rc;
        }
        return rc;
    }

    private static boolean causedByOutOfMemory(Throwable t) {
        for (int depth = 0; t != null && depth < 16; t = t.getCause(), depth++) {
            if (t instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }
}
