package dev.lockscope.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Print the live contention table of a JVM that lockscope is profiling (started with",
                "`lockscope record` or `lockscope attach`), like a Java dump. The table also goes to its stderr."})
final class DumpCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PID", description = "Process id of the profiled JVM.")
    long pid;

    @Override
    public Integer call() {
        System.out.print(TargetJvm.find(pid).table(EmbeddedJars.agent(), false));
        return 0;
    }
}
