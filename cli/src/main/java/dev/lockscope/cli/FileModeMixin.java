package dev.lockscope.cli;

import dev.lockscope.core.OutputFiles;
import picocli.CommandLine.Option;

/** {@code --file-mode}: the mode of the recording, snapshot and HTML report a command writes (record, attach, demo, dump). */
final class FileModeMixin {
    @Option(names = "--file-mode", paramLabel = "MODE", defaultValue = "0600",
            description = "Mode of the recording and the HTML report, in octal: 0640 or 0644 let the group or everyone read them "
                    + "(they hold system properties, stacks and thread names; default: ${DEFAULT-VALUE}, you only).")
    String fileMode;

    int mode() {
        try {
            return OutputFiles.fileMode("--file-mode", fileMode);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }

    /** The agent option for a mode other than the agent's default, else nothing. */
    String agentOption() {
        int mode = mode();
        return mode == OutputFiles.OWNER_ONLY ? null : "fileMode=0" + Integer.toOctalString(mode);
    }
}
