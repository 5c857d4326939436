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
        CommandLine cli = new CommandLine(new LockscopeCli());
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
}
