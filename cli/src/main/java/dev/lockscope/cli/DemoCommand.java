package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.demo.DemoMain;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run a bundled workload with a known bottleneck under the profiler and print the report.",
                "`lockscope demo --list` shows the workloads."})
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--list", description = "List the demo workloads and exit.")
    boolean list;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PATTERN", defaultValue = "large-cs-juc",
            description = "Workload to run (default: ${DEFAULT-VALUE}).")
    String pattern;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "16", description = "Worker threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "6", description = "How long to run (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Mixin
    AgentOptionsMixin agent;

    @Override
    public Integer call() {
        if (list) {
            DemoMain.PATTERNS.forEach((name, what) -> System.out.printf("  %-18s %s%n", name, what));
            return 0;
        }
        if (!DemoMain.PATTERNS.containsKey(pattern)) {
            throw new UserError("unknown demo pattern '" + pattern + "' (known: "
                    + String.join(", ", DemoMain.PATTERNS.keySet()) + ")");
        }
        if (threads < 1 || threads > 10_000) {
            throw new UserError("--threads must be between 1 and 10000, not " + threads);
        }
        if (!(seconds > 0 && seconds <= 86_400)) {
            throw new UserError("--seconds must be more than 0 and at most 86400 (a day), not " + seconds);
        }
        Path recording = agent.recordingFile();
        System.err.printf("lockscope: running demo %s with %d threads for %.0f s...%n", pattern, threads, seconds);
        List<String> command = List.of(ChildJvm.currentJava(), "-jar", EmbeddedJars.demo().toString(), pattern,
                "--threads", Integer.toString(threads), "--seconds", Double.toString(seconds));
        int rc = ChildJvm.run(command, EmbeddedJars.agent(), agent.agentArgs(recording, "quiet", "report=off"),
                agent.sched ? dev.lockscope.sched.SchedFile.besideRecording(recording) : null);
        ChildJvm.announce(recording);
        AfterRun.summarize(recording, new ContentionOptions(agent.collectionThreshold(), agent.printThreshold()),
                AfterRun.htmlBeside(recording), agent.fileMode.mode());
        return rc;
    }
}
