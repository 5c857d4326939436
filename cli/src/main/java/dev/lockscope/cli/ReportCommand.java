package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.report.export.OutputFormat;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;
import dev.lockscope.report.export.Side;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code lockscope report <recording>}: the park-contention table of a finished recording, or its HTML page and exports. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {
                "Reads a JFR recording made by lockscope (record, attach, or -javaagent) and prints the "
                        + "park-contention metrics (docs/reading-the-report.md) for every java.util.concurrent park blocker "
                        + "and every contended monitor, the lock with the most total wait first.",
                "For monitors, \"parked\" reads \"blocked on entry\". TotalExecutionTime is the recording's length."},
        footer = {"", "Examples:",
                "  lockscope report app.jfr",
                "  lockscope report app.jfr --format json -o contention.json",
                "  lockscope report app.jfr --format html -o app.html",
                "  lockscope report app.jfr --format collapsed --side owner > owner.collapsed",
                "  lockscope report app.jfr --format pprof -o wait.pb.gz",
                "  lockscope report app.jfr --print-threshold 100",
                "", "The JSON schema is documented in docs/json-schema.md, the HTML report and the exports in "
                        + "docs/html-report.md.",
                "References (authors, titles): README, section References.",
                "Exit status: 0 report written, 2 bad input (missing, truncated or non-JFR file, bad option)."})
class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "<recording>",
            description = "The .jfr file to analyse; several are merged into one report (see lockscope merge).")
    List<Path> recordings;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text, json, html (one self-contained page), collapsed (stacks for flamegraph.pl and "
                    + "speedscope) or pprof (gzipped profile.proto) (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Option(names = "--side", paramLabel = "waiter|owner", defaultValue = "waiter",
            description = "For collapsed and pprof: the waiting threads' call chains or the lock owners' "
                    + "(default: ${DEFAULT-VALUE}).")
    Side side;

    @Option(names = "--group-by", paramLabel = "ASPECTS", defaultValue = "lock,owner-method",
            description = "Owner-blame tree (text, json, and the grouping the HTML page opens with): comma-separated aspects in order, from kind, lock, lock-class, "
                    + "waiter-thread, waiter-method, waiter-chain, owner-thread, owner-method, owner-chain, chain-class "
                    + "(default: ${DEFAULT-VALUE}).")
    String groupBy;

    @Option(names = "--raw", description = "Keep java.util.concurrent lock internals (AQS, LockSupport frames) at the top of chains.")
    boolean raw;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the report to FILE instead of standard output.")
    Path output;

    @Option(names = "--print-threshold", paramLabel = "N", defaultValue = "0",
            description = "Leave out locks with fewer than N parks (default ${DEFAULT-VALUE}).")
    long printThreshold;

    @Option(names = "--collection-threshold", paramLabel = "N", defaultValue = "0",
            description = "Measure a lock only after its first N parks, which still count in times parked "
                    + "(default ${DEFAULT-VALUE}). Free-on-print is an agent option only: "
                    + "a recording holds no live records to free.")
    long collectionThreshold;

    @Mixin
    WaitClassMixin waits;

    @Mixin
    WrapperMixin wrappers;

    @Option(names = "--instances",
            description = "One row per lock object (class@identity hash; for monitors their address, which changes "
                    + "when the JVM deflates a monitor) instead of per lock site: the objects of one class "
                    + "first waited for at one place in the application, summed.")
    boolean instances;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10",
            description = "Text: show the first N entries of every section (locks, findings, idle pools, blame "
                    + "groups at each level); JSON and HTML keep everything (default: ${DEFAULT-VALUE}).")
    int top;

    @Override
    public Integer call() {
        return report();
    }

    final int report() {
        if (top < 1) {
            throw new UserError("--top must be >= 1, got " + top);
        }
        ContentionOptions options = options();
        List<Aspect> aspects;
        try {
            aspects = Aspect.parseList(groupBy);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        byte[] report;
        try {
            Report read = recordings.size() == 1
                    ? ReportBuilder.read(recordings.get(0), options, aspects, wrappers.view(raw), format.needsTimeline(),
                    waits.classifier())
                    : ReportBuilder.merge(recordings, options, aspects, wrappers.view(raw), waits.classifier());
            read.warnings().forEach(w -> spec.commandLine().getErr().println("lockscope: warning: " + w));
            report = format.render(read, side, top);
        } catch (RecordingException e) {
            throw new UserError(e.getMessage());
        }
        Output.write(spec, output, report, "report");
        return 0;
    }

    private ContentionOptions options() {
        if (printThreshold < 0) {
            throw new UserError("--print-threshold must be >= 0, got " + printThreshold);
        }
        if (collectionThreshold < 0) {
            throw new UserError("--collection-threshold must be >= 0, got " + collectionThreshold);
        }
        return new ContentionOptions(collectionThreshold, printThreshold, instances);
    }
}
