package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.core.OptionValues;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Print the live contention table of a JVM that lockscope is profiling (started with",
                "`lockscope record` or `lockscope attach`), like a Java dump. The table also goes to its stderr.",
                "With --since, also write the last minutes of its recording and their HTML report; the JVM goes on recording."})
final class DumpCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PID", description = "Process id of the profiled JVM.")
    long pid;

    @Option(names = "--since", paramLabel = "DURATION",
            description = "Write the recording's last DURATION (e.g. 5m, 1h) to -o, in whole JFR chunks.")
    String since;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "The snapshot recording, with --since (default: lockscope-<pid>-snapshot.jfr); "
                    + "its HTML report is written beside it as FILE.html without .jfr.")
    Path output;

    @Option(names = "--no-html", description = "With --since: no HTML report beside the snapshot.")
    boolean noHtml;

    @Mixin
    FileModeMixin fileMode;

    @Override
    public Integer call() {
        TargetJvm target = TargetJvm.find(pid);
        if (since == null) {
            if (output != null) {
                throw new UserError("-o needs --since (the table alone is printed here)");
            }
            System.out.print(target.table(EmbeddedJars.agent(), false));
            return 0;
        }
        long nanos = AgentOptionsMixin.checked(() -> OptionValues.maxAge("--since", since));
        if (nanos == 0) {
            throw new UserError("--since must be longer than 0");
        }
        Path snapshot = (output != null ? output : Path.of("lockscope-" + pid + "-snapshot.jfr")).toAbsolutePath().normalize();
        if (snapshot.toString().contains(",")) {
            throw new UserError("the snapshot path may not contain a comma: " + snapshot);
        }
        String mode = fileMode.agentOption();
        System.out.print(target.command(EmbeddedJars.agent(), "dump,since=" + since + ",out=" + snapshot + (mode == null ? "" : "," + mode)));
        System.err.println("lockscope: the last " + since + " of pid " + pid + "'s recording: " + snapshot);
        AfterRun.summarize(snapshot, new ContentionOptions(0, 0), noHtml ? null : AfterRun.htmlBeside(snapshot), fileMode.mode());
        return 0;
    }
}
