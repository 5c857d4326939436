package dev.lockscope.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(name = "attach", mixinStandardHelpOptions = true,
        description = {"Start profiling a running JVM (JDK 17+) by pid.",
                "With --duration, profile that long, then stop and print here what `lockscope report` opens with:",
                "the findings, then the table. Without it, profiling goes on until the JVM exits (the table prints",
                "on its stderr); `lockscope dump PID` shows the table meanwhile and `lockscope attach PID --stop`",
                "ends it, printing the findings and the table."})
final class AttachCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PID", description = "Process id of the target JVM.")
    long pid;

    @Option(names = {"-d", "--duration"}, paramLabel = "DURATION",
            description = "Profile this long, then stop and print the table, e.g. 30s, 2m.")
    String duration;

    @Option(names = "--stop", description = "Stop a profiling session started earlier and print its table.")
    boolean stop;

    @Mixin
    AgentOptionsMixin agent;

    @Override
    public Integer call() throws InterruptedException {
        Duration wait = duration == null ? null : Durations.parse(duration, "--duration", null);
        TargetJvm target = TargetJvm.find(pid);
        Path agentJar = EmbeddedJars.agent();
        if (stop) {
            String table = target.table(agentJar, true);
            System.out.print(FirstScreen.findings(target.answeredRecording()) + table);
            return 0;
        }
        Path recording = agent.recordingFile();
        target.command(agentJar, agent.agentArgs(recording, "quiet"));
        if (wait == null) {
            System.err.println("lockscope: profiling pid " + pid + " into " + recording
                    + "; see the table with `lockscope dump " + pid + "`, stop with `lockscope attach " + pid + " --stop`");
            return 0;
        }
        System.err.printf(Locale.ROOT, "lockscope: profiling pid %d for %s into %s%n", pid, duration, recording);
        long end = System.nanoTime() + wait.toNanos();
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            Thread.sleep(Math.min(left / 1_000_000 + 1, 1000));
            if (ProcessHandle.of(pid).isEmpty()) {
                System.err.println("lockscope: pid " + pid + " exited; its table was printed on its own stderr");
                ChildJvm.announce(recording);
                return 1;
            }
        }
        String table = target.table(agentJar, true);
        System.out.print(FirstScreen.findings(target.answeredRecording() != null ? target.answeredRecording() : recording) + table);
        ChildJvm.announce(recording);
        return 0;
    }
}
