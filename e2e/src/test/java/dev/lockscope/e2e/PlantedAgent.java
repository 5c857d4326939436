package dev.lockscope.e2e;

import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The agent another local user plants in lockscope's temp directory ({@link AgentJarExtractionIT}): if
 * lockscope ever loads it, it leaves {@value #MARKER} beside the recording lockscope asked for.
 */
public final class PlantedAgent {
    static final String MARKER = "planted-agent-ran";

    private PlantedAgent() {
    }

    public static void premain(String args, Instrumentation inst) throws Exception {
        ran(args);
    }

    public static void agentmain(String args, Instrumentation inst) throws Exception {
        ran(args);
    }

    private static void ran(String args) throws Exception {
        for (String part : args == null ? new String[0] : args.split(",")) {
            if (part.startsWith("file=")) {
                Files.writeString(Path.of(part.substring("file=".length())).resolveSibling(MARKER),
                        "ran as " + System.getProperty("user.name"));
            }
        }
    }
}
