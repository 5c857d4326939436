package dev.lockscope.cli;

import dev.lockscope.core.OutputFiles;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Path;

/** Where a command's result goes: standard output as bytes (it may be binary, e.g. pprof), or a file. */
final class Output {
    private Output() {
    }

    /** @param what the word for the result in "lockscope: ... written to FILE" */
    static void write(CommandSpec spec, Path file, byte[] bytes, String what) {
        if (file == null) {
            // picocli's writer is for text; the bytes go to stdout as they are
            spec.commandLine().getOut().flush();
            System.out.write(bytes, 0, bytes.length);
            System.out.flush();
            return;
        }
        try {
            OutputFiles.write(file, bytes, OutputFiles.OWNER_ONLY);
        } catch (IOException e) {
            throw new UserError("cannot write " + file + ": " + e);
        }
        spec.commandLine().getErr().println("lockscope: " + what + " written to " + file);
    }
}
