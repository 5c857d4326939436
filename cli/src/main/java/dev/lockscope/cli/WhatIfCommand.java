package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.whatif.HoldCeiling;
import dev.lockscope.analysis.whatif.LockTrace;
import dev.lockscope.analysis.whatif.Measured;
import dev.lockscope.analysis.whatif.WhatIf;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.report.JsonReport;
import dev.lockscope.report.html.HtmlReport;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;
import dev.lockscope.report.whatif.WhatIfReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code lockscope whatif <recording>}: predicted throughput change if a lock's holds were shorter. */
@Command(name = "whatif", mixinStandardHelpOptions = true,
        description = {"Predicts from a recording how much faster the program would run if one lock's holds (or "
                + "those at one holding site) were k× as long, by replaying the recorded threads with the change; "
                + "without --lock or --site, every lock waited for with its holds halved, the greatest gain first.",
                "The replay assumes: work outside the changed holds takes what it took in the recording; among "
                        + "the threads waiting for a lock, it goes to the one the recording gave it to first; throughput is proportional to the lock operations "
                        + "threads complete; only holds the recording shows (those somebody waited for, and the rest "
                        + "estimated from the lock's median hold) are replayed. Each prediction comes with the spread "
                        + "of the same prediction on each quarter of the recording alone and a confidence "
                        + "(docs/what-if.md).",
                "Examples:",
                "  lockscope whatif app.jfr",
                "  lockscope whatif app.jfr --lock 1 --factor 0.5",
                "  lockscope whatif app.jfr --lock 'java.util.concurrent.locks.ReentrantLock$NonfairSync@3765a5b6'",
                "  lockscope whatif app.jfr --site Catalog.search --factor 0.25",
                "  lockscope whatif app.jfr --lock 1 --remove --format json",
                "With --measure, an experiment instead of a replay: runs COMMAND (which prints its throughput) once "
                        + "profiled, to find the application's lock sites waited for most, once with every hold there "
                        + "timed, then alternately as it is and with every release at one site delayed by a share of "
                        + "its mean hold (the lock still held), until the change's interval is narrower than the change "
                        + "or --runs is spent; the change ranks the sites and extrapolates the gain of halving their holds.",
                "  lockscope whatif --measure -- java -jar app.jar",
                "  lockscope whatif --measure --site Catalog.search --runs 6 -- java -jar app.jar"})
final class WhatIfCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "<recording>|COMMAND", description = "JFR file written by the lockscope "
            + "agent; with --measure, the command to run (after --)")
    List<String> arguments;
    Path recording;

    @Option(names = "--measure", description = "measure by experiment, running the COMMAND with longer holds")
    boolean measure;

    @Option(names = "--delay", paramLabel = "PCT", defaultValue = "50", description = "with --measure: each delayed "
            + "release waits this percent of the site's mean hold, every hold timed (default: ${DEFAULT-VALUE}: the "
            + "holds 1.5× as long)")
    double delayPct;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "10", description = "with --measure: the most delayed "
            + "runs per site (each between two runs as it is) before its change is said not to be resolved; it stops "
            + "sooner once the change's interval is narrower than the change (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--top", paramLabel = "N", defaultValue = "3", description = "with --measure and no --site: the "
            + "lock sites waited for most that are measured (default: ${DEFAULT-VALUE})")
    int top;

    @Mixin
    ThroughputMixin throughput;

    @Option(names = "--lock", paramLabel = "ID", description = "the lock: its rank in `lockscope report --instances`'s table "
            + "(1 is the first), its class@id as the report names it, or its id alone")
    String lock;

    @Option(names = "--site", paramLabel = "METHOD", description = "only the holds acquired at this site: text "
            + "contained in the innermost application frame, e.g. Catalog.search or Catalog.java:42")
    String site;

    @Option(names = "--factor", paramLabel = "K", defaultValue = "0.5", description = "the changed holds take K "
            + "times as long: 0.5 halves them, 0 makes them free, 2 doubles them (default: ${DEFAULT-VALUE})")
    double factor;

    @Option(names = "--remove", description = "the lock excludes nobody any more (its critical sections run in "
            + "parallel, as long as before): what removing the lock would give, and which lock is next")
    boolean remove;

    @Option(names = "--format", paramLabel = "text|json|html", defaultValue = "text", description = "output format "
            + "(default: text); html with --measure: the profiled run's report page, its \"what would help\" section "
            + "with the measured sites beside the replay's predictions")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write the output to FILE (default: stdout)")
    Path output;

    @Override
    public Integer call() {
        if (!List.of("text", "json", "html").contains(format)) {
            throw new UserError("--format: unknown format '" + format + "' (known: text, json, html)");
        }
        if (measure) {
            return measure();
        }
        if (format.equals("html")) {
            throw new UserError("--format html is the page of --measure; a recording's page, with its what-if section, "
                    + "is `lockscope report --format html`");
        }
        if (arguments.size() > 1) {
            throw new UserError("one recording, not " + arguments.size() + " arguments (a command needs --measure)");
        }
        recording = Path.of(arguments.get(0));
        if (!(factor >= 0 && factor <= 1000)) {
            throw new UserError("--factor must be between 0 and 1000, not " + factor);
        }
        if (remove && lock == null) {
            throw new UserError("--remove needs --lock: which lock to remove");
        }
        if (remove && site != null) {
            throw new UserError("--remove removes a whole lock; leave out --site");
        }
        // the report's one pass: its table (--lock's ranks, the rows the replay could not predict), the waits'
        // classes, deep mode's locks (a removal is bounded by them) and the holds the replay reads
        ReportBuilder builder = new ReportBuilder(ContentionOptions.DEFAULTS, Aspect.DEFAULT, false, false);
        RecordingInfo info;
        Report report;
        try {
            info = RecordingReader.read(recording, builder.visitors().toArray(RecordingVisitor[]::new));
            report = builder.build(info);
        } catch (RecordingException e) {
            throw new UserError(e.getMessage());
        }
        info.warnings().forEach(w -> System.err.println("lockscope: warning: " + w));
        long sampled = report.contention().sampledParks();
        if (sampled > 0) {
            System.err.println("lockscope: warning: the agent sampled the recording's short parks (" + sampled
                    + " recorded of those under its --sample-below): the replay misses the holds the others would show; "
                    + "record with --sample-below 0 for what-if");
        }
        if (report.contention().stackBudget().parksDropped() > 0) {
            System.err.println("lockscope: warning: the agent's stack budget refused " + report.contention().stackBudget().parksDropped()
                    + " of the recording's park events: the replay misses their holds; record with --stack-budget 0 for what-if");
        }
        LockTrace trace = builder.holdTrace();
        String out;
        if (lock == null && site == null) {
            out = format.equals("json") ? JsonReport.write(WhatIfReport.rankingJson(report))
                    : WhatIfReport.rankingText(report, recording.getFileName().toString());
        } else {
            LockId id = lock == null ? null : resolve(lock, report.contention(), trace);
            WhatIf.Prediction p;
            try {
                p = remove ? WhatIf.remove(trace, id, report.deep() == null ? null : HoldCeiling.of(report.deep()))
                        : WhatIf.predict(trace, id, site, factor);
            } catch (IllegalArgumentException e) {
                throw new UserError(e.getMessage());
            }
            if (p.holds() == 0) {
                throw new UserError("no hold " + (site == null ? "" : "at a site containing '" + site + "' ")
                        + (id == null ? "of any lock" : "of " + id.label()) + " in the recording (holds are seen "
                        + "only where somebody waited: see `lockscope report`'s blame tree for owner sites)");
            }
            out = format.equals("json") ? JsonReport.write(WhatIfReport.json(p)) : WhatIfReport.text(p);
        }
        return print(out);
    }

    private Integer print(String out) {
        if (output != null) {
            Output.write(spec, output, out.getBytes(java.nio.charset.StandardCharsets.UTF_8), "whatif");
            return 0;
        }
        spec.commandLine().getOut().print(out);
        spec.commandLine().getOut().flush();
        return spec.commandLine().getOut().checkError() ? 1 : 0;
    }

    private Integer measure() {
        if (lock != null || remove) {
            throw new UserError("--measure names lock sites with --site, not --lock or --remove");
        }
        if (!(delayPct > 0 && delayPct <= 400)) {
            throw new UserError("--delay must be between 0 and 400 percent, not " + delayPct);
        }
        if (runs < Measured.MIN_RUNS || runs > 100) {
            throw new UserError("--runs must be between " + Measured.MIN_RUNS + " and 100, not " + runs);
        }
        if (top < 1 || top > 20) {
            throw new UserError("--top must be between 1 and 20");
        }
        Path dir;
        try {
            dir = java.nio.file.Files.createTempDirectory("lockscope-whatif-");
        } catch (java.io.IOException e) {
            throw new UserError("cannot create a temporary directory: " + e.getMessage());
        }
        WhatIfMeasure experiment = new WhatIfMeasure(arguments, throughput.pattern(), dir, 900);
        List<Measured> measured = experiment.run(site == null ? List.of() : List.of(site.split(",")), top,
                1 + delayPct / 100, runs, format.equals("html"));
        deleteRuns(dir); // kept when a run failed: the error names its output there
        String out;
        if (format.equals("html")) {
            out = HtmlReport.render(experiment.report(measured));
        } else if (format.equals("json")) {
            out = JsonReport.write(WhatIfReport.measuredJson(experiment.candidates(), measured));
        } else {
            out = WhatIfReport.measuredText(measured);
        }
        return print(out);
    }

    private static void deleteRuns(Path dir) {
        try (var files = java.nio.file.Files.list(dir)) {
            for (Path f : files.toList()) {
                java.nio.file.Files.deleteIfExists(f);
            }
            java.nio.file.Files.deleteIfExists(dir);
        } catch (java.io.IOException | RuntimeException e) {
            System.err.println("lockscope: could not delete the runs' files in " + dir + ": " + e.getMessage());
        }
    }

    /**
     * The lock the user named: a rank among the recording's locks (objects, as {@code report --instances}
     * ranks them: a replay changes one object's holds, while the report's default rows are lock sites),
     * a class@id, or an id.
     */
    private static LockId resolve(String text, LockContention table, LockTrace trace) {
        if (text.matches("\\d{1,6}")) {
            int rank = Integer.parseInt(text);
            if (rank < 1 || rank > table.locks().size()) {
                int n = table.locks().size();
                throw new UserError("--lock " + text + ": the recording has " + n + (n == 1 ? " lock" : " locks")
                        + " waited for (ranks 1 to " + n + ", as `lockscope report --instances` lists them)");
            }
            LockMetrics m = table.locks().get(rank - 1);
            return new LockId(m.kind(), m.className(), m.identityHash());
        }
        LockId found = null;
        for (LockId id : trace.locks()) {
            if (id.label().equals(text) || id.id().equals(text)) {
                if (found != null && !found.equals(id)) {
                    throw new UserError("--lock " + text + " names more than one lock; give class@id");
                }
                found = id;
            }
        }
        if (found == null) {
            throw new UserError("--lock " + text + ": no such lock in the recording (the report's table names "
                    + "locks as class@id; or give a rank)");
        }
        return found;
    }
}
