package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.bottle.BottleSection;
import dev.lockscope.analysis.bottle.ThreadClassifier;
import dev.lockscope.analysis.bottle.VirtualThreadMounts;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.report.bottle.BottleJson;
import dev.lockscope.report.bottle.BottleSvg;
import dev.lockscope.report.bottle.BottleTextReport;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;
import dev.lockscope.sched.SchedFile;
import dev.lockscope.sched.SchedFormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.concurrent.Callable;

/** {@code lockscope bottle}: bottle graphs (share × parallelism per thread) from recorded scheduling data. */
@Command(name = "bottle", sortOptions = false, mixinStandardHelpOptions = true,
        description = {
            "Bottle graph of a recorded run (Du Bois et al., OOPSLA'13): one box per thread, height = its share "
                + "of the execution time (S = sum of t/r over the intervals it ran, r = threads running then), "
                + "width = its parallelism (P = running time / S), area = running time. Boxes are stacked widest "
                + "at the bottom; narrow, tall boxes at the top are the neck that limits scaling.",
            "",
            "Reads FILE.sched, or the .sched stored next to a .jfr recording (run.jfr -> run.sched); with a "
                + ".jfr, Java thread names from the recording replace the 15-character OS names.",
            "GC, JIT and other JVM threads are grouped and coloured apart; pool-N-thread-M, ForkJoinPool and "
                + "numbered names (worker-1, worker-2) form pool groups.",
            "With a .jfr, the tall narrow application boxes (the neck) are explained: what the other application "
                + "threads were doing while the neck thread ran alone (blocked on which monitor, parked, waiting, "
                + "sleeping, not started, finished), from the recording's jdk.* events.",
            "Virtual threads (recorded with --sched on JDK 21+): a carrier's running time goes to the virtual threads "
                + "it ran then, one box per executor or thread factory; the carrier keeps only the time it ran none.",
            "Data from the /proc fallback (no perf) are marked APPROXIMATE with the reason. Time spent runnable "
                + "but not running is shown as 'preempted'; when more threads were runnable than there are CPUs "
                + "a WARNING says parallelism was bounded by the machine.",
            ""})
final class BottleCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "a .sched file, or a .jfr recording with its .sched beside it")
    Path file;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default), json or svg")
    String format;

    @Option(names = "--slice", paramLabel = "DURATION",
            description = "one graph per time slice, e.g. 500ms, 2s (unit ns, us, ms, s, m; default ms)")
    String slice;

    @Option(names = "--group", paramLabel = "NAME=REGEX",
            description = "put threads whose name matches REGEX into group NAME (repeatable; tried in order, "
                    + "before the built-in groups)")
    List<String> groups = new ArrayList<>();

    @Option(names = "--by-group", description = "text and svg: one box per group instead of per thread")
    boolean byGroup;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "write to OUT instead of standard output")
    Path output;

    @Override
    public Integer call() {
        if (!List.of("text", "json", "svg").contains(format)) {
            throw new UserError("unknown --format '" + format + "' (expected text, json or svg)");
        }
        BottleSection.Request request = new BottleSection.Request(classifier(),
                slice == null ? 0 : Durations.parse(slice, "--slice", "ms").toNanos(), true);
        BottleSection bottles = file.getFileName().toString().endsWith(".jfr") ? ofRecording(request) : ofSched(request);
        String out = switch (format) {
            case "json" -> BottleJson.render(bottles.whole(), bottles.slices(), bottles.necks());
            case "svg" -> BottleSvg.render(bottles.slices(), byGroup);
            default -> BottleTextReport.render(bottles.slices(), byGroup) + BottleTextReport.renderNecks(bottles.necks());
        };
        if (output == null) {
            spec.commandLine().getOut().print(out);
            spec.commandLine().getOut().flush();
        } else {
            try {
                dev.lockscope.core.OutputFiles.write(output, out.getBytes(StandardCharsets.UTF_8), dev.lockscope.core.OutputFiles.OWNER_ONLY);
            } catch (IOException e) {
                throw new UserError("cannot write " + output + ": " + e.getMessage());
            }
        }
        return 0;
    }

    /**
     * A recording with its {@code .sched} beside it: read as {@code lockscope report} reads it (one pass, the report
     * model's bottle section), with the recording's Java thread names, carriers, steal and the waits that explain
     * the neck.
     */
    private BottleSection ofRecording(BottleSection.Request request) {
        Path sched = SchedFile.besideRecording(file);
        if (!Files.isRegularFile(file)) {
            throw new UserError("no such file: " + file);
        }
        if (!Files.isRegularFile(sched)) {
            throw new UserError("no scheduling data next to " + file + " (expected " + sched
                    + "; it is written by lockscope record)");
        }
        Report report;
        try {
            ReportBuilder builder = new ReportBuilder(ContentionOptions.DEFAULTS, Aspect.DEFAULT, false, false)
                    .drawingBottles(request);
            report = builder.build(RecordingReader.read(file, builder.visitors().toArray(RecordingVisitor[]::new)));
        } catch (RecordingException e) {
            throw new UserError(e.getMessage());
        }
        if (report.bottles() == null) {
            // the report says why: a damaged .sched is one warning of its own
            String why = report.warnings().stream().filter(w -> w.startsWith("no bottle graph: ")).findFirst()
                    .map(w -> w.substring("no bottle graph: ".length())).orElse("no bottle graph");
            throw new UserError("cannot read " + sched + ": " + why);
        }
        report.warnings().forEach(w -> System.err.println("lockscope: warning: " + w));
        return report.bottles();
    }

    /** A {@code .sched} by itself: no recording, so OS thread names and no neck explained. */
    private BottleSection ofSched(BottleSection.Request request) {
        if (!Files.isRegularFile(file)) {
            throw new UserError("no such file: " + file);
        }
        try {
            return BottleSection.of(SchedFile.read(file), request, VirtualThreadMounts.NONE, Map.of(), null);
        } catch (NoSuchFileException e) {
            throw new UserError("no such file: " + file);
        } catch (IOException | SchedFormatException e) {
            throw new UserError("cannot read " + file + ": " + e.getMessage());
        }
    }

    private ThreadClassifier classifier() {
        Map<String, Pattern> user = new LinkedHashMap<>();
        for (String g : groups) {
            try {
                Map.Entry<String, Pattern> e = ThreadClassifier.parseUserGroup(g);
                user.put(e.getKey(), e.getValue());
            } catch (IllegalArgumentException e) {
                throw new UserError(e.getMessage());
            }
        }
        return new ThreadClassifier(user);
    }
}
