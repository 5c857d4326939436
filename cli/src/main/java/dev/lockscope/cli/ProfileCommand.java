package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.profile.Profiles;
import dev.lockscope.report.export.CollapsedStacks;
import dev.lockscope.report.export.PprofProfile;
import dev.lockscope.report.export.ProfileStacks;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;
import dev.lockscope.report.profile.ProfileTextReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code lockscope profile <recording>}: where the time went, on CPU or by the wall clock. */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = {
                "The CPU profile of a recording (its execution samples), or with --wall its wall-clock profile: "
                        + "running time from the execution samples and waiting time from the recorded lock, park, "
                        + "Object.wait, sleep and I/O events, on one scale, so a method that is slow because it waits "
                        + "shows the lock it waited for as its leaf.",
                "Text shows the thread groups, the flat profile (methods by self time) and the call tree; "
                        + "the HTML page of lockscope report shows both profiles as flame graphs."},
        footer = {"", "Examples:",
                "  lockscope profile app.jfr",
                "  lockscope profile app.jfr --wall --top 20",
                "  lockscope profile app.jfr --wall --format collapsed > wall.collapsed",
                "  lockscope profile app.jfr --format pprof -o cpu.pb.gz",
                "", "Exit status: 0 profile written, 2 bad input (missing or non-JFR file, bad option)."})
final class ProfileCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<recording>", description = "The .jfr file to analyse.")
    Path recording;

    @Option(names = "--wall", description = "The wall-clock profile instead of the CPU profile.")
    boolean wall;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text, collapsed (stacks for flamegraph.pl and speedscope) or pprof (gzipped profile.proto) "
                    + "(default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--group", paramLabel = "GROUP",
            description = "Only this thread group (as the text lists them, e.g. 'pool-1-thread-*').")
    String group;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10",
            description = "Text: rows of each section (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of standard output.")
    Path output;

    @Override
    public Integer call() {
        if (top < 1) {
            throw new UserError("--top must be >= 1, got " + top);
        }
        if (!format.equals("text") && !format.equals("collapsed") && !format.equals("pprof")) {
            throw new UserError("--format: unknown format '" + format + "' (known: text, collapsed, pprof)");
        }
        Report report;
        try {
            report = ReportBuilder.read(recording, new ContentionOptions(0, 0), Aspect.DEFAULT, false, false);
        } catch (RecordingException e) {
            throw new UserError(e.getMessage());
        }
        report.warnings().forEach(w -> spec.commandLine().getErr().println("lockscope: warning: " + w));
        Profiles profiles = report.profiles();
        if (group != null && !profiles.cpuByGroup().containsKey(group) && !profiles.wallByGroup().containsKey(group)) {
            throw new UserError("--group: no thread group '" + group + "' in " + recording + " (known: "
                    + String.join(", ", profiles.wallByGroup().keySet()) + ")");
        }
        byte[] out = switch (format) {
            case "collapsed" -> CollapsedStacks.render(ProfileStacks.of(profiles, wall, group)).getBytes(StandardCharsets.UTF_8);
            case "pprof" -> PprofProfile.render(ProfileStacks.of(profiles, wall, group), wall ? "wall" : "cpu",
                    wall ? null : "samples", report.contention().startNanos(), report.contention().durationNanos());
            default -> ProfileTextReport.render(profiles, wall, group, top).getBytes(StandardCharsets.UTF_8);
        };
        Output.write(spec, output, out, "profile");
        return 0;
    }
}
