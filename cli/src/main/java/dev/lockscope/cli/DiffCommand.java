package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.profile.ProfileDiff;
import dev.lockscope.analysis.profile.Profiles;
import dev.lockscope.report.model.ReportBuilder;
import dev.lockscope.report.profile.ProfileDiffReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code lockscope diff <first> <second>}: two profiles of one program compared, e.g. before and after a fix. */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = {
                "Compares the CPU profiles (or with --wall the wall-clock profiles) of two recordings, per thread "
                        + "group and for all threads: the degree of overlap of their calling context trees and the "
                        + "hot-edge coverage both ways (Hofer §3.4), then the call paths whose share of the time grew "
                        + "and shrank most. --format json gives the same rows and changes to a program (docs/json-schema.md), --format html "
                        + "writes a page with a differential flame graph."},
        footer = {"", "Examples:",
                "  lockscope diff before.jfr after.jfr",
                "  lockscope diff before.jfr after.jfr --wall --format html -o diff.html",
                "  lockscope diff before.jfr after.jfr --format json | jq '.rows[0].overlap'",
                "", "Exit status: 0 comparison written, 2 bad input (missing or non-JFR file, bad option)."})
final class DiffCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<first>", description = "The first recording (before).")
    Path first;

    @Parameters(index = "1", paramLabel = "<second>", description = "The second recording (after).")
    Path second;

    @Option(names = "--wall", description = "Compare the wall-clock profiles instead of the CPU profiles.")
    boolean wall;

    @Option(names = "--threshold", paramLabel = "T", defaultValue = "0.1",
            description = "A call path is hot when its self time is at least T times the hottest one's (default: ${DEFAULT-VALUE}, as in Hofer).")
    double threshold;

    @Option(names = "--format", paramLabel = "text|json|html", defaultValue = "text", description = "(default: ${DEFAULT-VALUE})")
    String format;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10", description = "Text and JSON: call paths listed as grown and as shrunk (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of standard output.")
    Path output;

    @Override
    public Integer call() {
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new UserError("--threshold must be within [0, 1], got " + threshold);
        }
        if (top < 1) {
            throw new UserError("--top must be >= 1, got " + top);
        }
        if (!List.of("text", "json", "html").contains(format)) {
            throw new UserError("--format: unknown format '" + format + "' (known: text, json, html)");
        }
        Profiles a = profiles(first);
        Profiles b = profiles(second);
        ProfileDiff diff = ProfileDiff.of(a, b, wall, threshold);
        String out = switch (format) {
            case "html" -> ProfileDiffReport.html(diff, a.tree(wall, null), b.tree(wall, null), first.toString(), second.toString());
            case "json" -> ProfileDiffReport.json(diff, first.toString(), second.toString(), top);
            default -> ProfileDiffReport.text(diff, first.toString(), second.toString(), top);
        };
        Output.write(spec, output, out.getBytes(StandardCharsets.UTF_8), "comparison");
        return 0;
    }

    private Profiles profiles(Path recording) {
        try {
            var report = ReportBuilder.read(recording, new ContentionOptions(0, 0), Aspect.DEFAULT, false, false);
            report.warnings().forEach(w -> spec.commandLine().getErr().println("lockscope: warning: " + recording + ": " + w));
            return report.profiles();
        } catch (RecordingException e) {
            throw new UserError(e.getMessage());
        }
    }
}
