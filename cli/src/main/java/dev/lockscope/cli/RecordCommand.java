package dev.lockscope.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "record", mixinStandardHelpOptions = true,
        description = {"Run a Java command under the lockscope agent: records lock contention into a JFR file "
                + "and prints the contention table when the JVM exits.",
                "",
                "Example: lockscope record -o app.jfr -- java -jar app.jar",
                "If COMMAND is not java itself (a script, mvn, gradle), the agent is passed in JAVA_TOOL_OPTIONS."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"N:the command's own exit code", "2:bad lockscope options"})
final class RecordCommand implements Callable<Integer> {
    @Mixin
    AgentOptionsMixin agent;

    @Parameters(arity = "1..*", paramLabel = "COMMAND", description = "The command to run, e.g. java -jar app.jar.")
    List<String> command;

    @Override
    public Integer call() {
        Path recording = agent.recordingFile();
        int rc = ChildJvm.run(command, EmbeddedJars.agent(), agent.agentArgs(recording),
                agent.sched ? dev.lockscope.sched.SchedFile.besideRecording(recording) : null);
        ChildJvm.announce(recording);
        return rc;
    }
}
