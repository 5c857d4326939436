package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.LockContentionAnalysis;
import dev.lockscope.analysis.RecordingException;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.report.JsonReport;
import dev.lockscope.report.TextReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code lockscope report <recording>}: the park-contention table of a finished recording, as text or JSON. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {
                "Reads a JFR recording made by lockscope (record, attach, or -javaagent) and prints the "
                        + "park-contention metrics of seed 000 §3.7 for every java.util.concurrent park blocker "
                        + "and every contended monitor, the lock with the most total wait first.",
                "For monitors, \"parked\" reads \"blocked on entry\". TotalExecutionTime is the recording's length."},
        footer = {"", "Examples:",
                "  lockscope report app.jfr",
                "  lockscope report app.jfr --format json -o contention.json",
                "  lockscope report app.jfr --print-threshold 100",
                "", "The JSON schema is documented in docs/json-schema.md.",
                "Exit status: 0 report written, 2 bad input (missing, truncated or non-JFR file, bad option)."})
final class ReportCommand implements Callable<Integer> {
    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<recording>", description = "The .jfr file to analyse.")
    Path recording;

    @Option(names = "--format", paramLabel = "text|json", defaultValue = "text",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the report to FILE instead of standard output.")
    Path output;

    @Option(names = "--print-threshold", paramLabel = "N", defaultValue = "0",
            description = "Leave out locks with fewer than N parks (seed 000 §3.3.2; default ${DEFAULT-VALUE}).")
    long printThreshold;

    @Option(names = "--collection-threshold", paramLabel = "N", defaultValue = "0",
            description = "Measure a lock only after its first N parks, which still count in times parked "
                    + "(seed 000 §3.3.1; default ${DEFAULT-VALUE}). Free-on-print is an agent option only: "
                    + "a recording holds no live records to free.")
    long collectionThreshold;

    @Override
    public Integer call() {
        ContentionOptions options = options();
        LockContention contention;
        try {
            contention = LockContentionAnalysis.analyze(RecordingReader.read(recording), options);
        } catch (RecordingException e) {
            throw new UserError(e.getMessage());
        }
        String report = format == Format.json ? JsonReport.render(contention) : TextReport.render(contention);
        if (output == null) {
            PrintWriter out = spec.commandLine().getOut();
            out.print(report);
            out.flush();
        } else {
            try {
                Files.writeString(output, report, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UserError("cannot write " + output + ": " + e);
            }
            spec.commandLine().getErr().println("lockscope: report written to " + output);
        }
        return 0;
    }

    private ContentionOptions options() {
        if (printThreshold < 0) {
            throw new UserError("--print-threshold must be >= 0, got " + printThreshold);
        }
        if (collectionThreshold < 0) {
            throw new UserError("--collection-threshold must be >= 0, got " + collectionThreshold);
        }
        return new ContentionOptions(collectionThreshold, printThreshold);
    }
}
