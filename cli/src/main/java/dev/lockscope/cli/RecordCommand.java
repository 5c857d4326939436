package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
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

    @Option(names = "--html", paramLabel = "FILE",
            description = "Where to write the interactive HTML report after the run (default: the recording's "
                    + "name with .html).")
    Path html;

    @Option(names = "--no-html", description = "Write no HTML report.")
    boolean noHtml;

    @Parameters(arity = "1..*", paramLabel = "COMMAND", description = "The command to run, e.g. java -jar app.jar.")
    List<String> command;

    @Override
    public Integer call() {
        Path recording = agent.recordingFile();
        // newFile: the first JVM of the command takes this name, each further one (a wrapper's forks) its own
        String agentArgs = agent.agentArgs(recording, "newFile");
        try {
            Files.deleteIfExists(recording);
        } catch (IOException e) {
            throw new UserError("cannot replace " + recording + ": " + e.getMessage());
        }
        int rc = ChildJvm.run(command, EmbeddedJars.agent(), agentArgs,
                agent.sched ? dev.lockscope.sched.SchedFile.besideRecording(recording) : null);
        ChildJvm.announce(recording);
        AfterRun.summarize(recording, new ContentionOptions(agent.collectionThreshold(), agent.printThreshold()),
                noHtml ? null : html != null ? html : AfterRun.htmlBeside(recording), agent.fileMode.mode());
        return rc;
    }
}
