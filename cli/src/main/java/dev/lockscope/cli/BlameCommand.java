package dev.lockscope.cli;

import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.report.TextReport;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;
import dev.lockscope.report.blame.BlameJsonReport;
import dev.lockscope.report.blame.BlameTextReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code lockscope blame <recording>}: who held each lock, in what code, while others waited. */
@Command(name = "blame", mixinStandardHelpOptions = true, description = "Owner blame: contention of each lock attributed to the thread that held it "
        + "and the call chain it held it in, as a tree over the chosen aspects.")
final class BlameCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<recording>", description = "JFR file written by the lockscope agent")
    Path recording;

    @Option(names = "--group-by", paramLabel = "aspects", description = "comma-separated aspects, outermost first: kind, "
            + "lock, lock-class, waiter-thread, waiter-method, waiter-chain, owner-thread, owner-method, owner-chain, "
            + "chain-class (default: lock,owner-method)")
    String groupBy;

    @Option(names = "--raw", description = "keep JDK lock internals (AQS, LockSupport) at the top of call chains")
    boolean raw;

    @Option(names = "--instances", description = "the lock aspect per lock object (class@identity hash) instead of per lock site")
    boolean instances;

    @Option(names = "--format", paramLabel = "text|json", description = "output format (default: text)")
    String format = "text";

    @Mixin
    WaitClassMixin waits;

    @Mixin
    WrapperMixin wrappers;

    @Override
    public Integer call() {
        List<Aspect> aspects;
        try {
            aspects = groupBy == null ? Aspect.DEFAULT : Aspect.parseList(groupBy);
        } catch (IllegalArgumentException e) {
            throw new UserError("--group-by: " + e.getMessage());
        }
        if (!format.equals("text") && !format.equals("json")) {
            throw new UserError("--format: unknown format '" + format + "' (known: text, json)");
        }
        Report report;
        try {
            // the report's blame, so that this tree is the one report and the HTML page show
            report = ReportBuilder.read(recording, new ContentionOptions(0, 0, instances), aspects, wrappers.view(raw), false,
                    waits.classifier());
            report.warnings().forEach(w -> System.err.println("lockscope: warning: " + w));
        } catch (RecordingException e) {
            throw new UserError(e.getMessage());
        }
        BlameSummary summary = report.blame();
        spec.commandLine().getOut().print(format.equals("json") ? BlameJsonReport.render(summary)
                : BlameTextReport.render(summary, Integer.MAX_VALUE, report.contention().rowLabels()) + TextReport.idle(report, Integer.MAX_VALUE));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
