package dev.lockscope.cli;

import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.bottle.BottleGraph;
import dev.lockscope.analysis.bottle.BottleGraphs;
import dev.lockscope.analysis.bottle.JfrThreadNames;
import dev.lockscope.analysis.bottle.JfrWaits;
import dev.lockscope.analysis.bottle.NeckExplainer;
import dev.lockscope.analysis.bottle.ThreadClassifier;
import dev.lockscope.analysis.bottle.VirtualThreadMounts;
import dev.lockscope.report.bottle.BottleJson;
import dev.lockscope.report.bottle.BottleSvg;
import dev.lockscope.report.bottle.BottleTextReport;
import dev.lockscope.sched.SchedFile;
import dev.lockscope.sched.SchedFormatException;
import dev.lockscope.sched.SchedTrace;
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
        ThreadClassifier classifier = classifier();
        SchedTrace trace = readTrace();
        boolean withRecording = file.getFileName().toString().endsWith(".jfr") && Files.isRegularFile(file);
        // virtual threads by their carriers: recorded with --sched on JDK 21+
        VirtualThreadMounts mounts = withRecording ? recordingWaits().carrierMounts() : VirtualThreadMounts.NONE;
        BottleGraph whole = BottleGraphs.whole(trace, classifier, mounts);
        if (withRecording) {
            whole = whole.withSteal(recordingWaits().stealByOsTid()); // the recording's steal covers the whole run only
        }
        List<NeckExplainer.Neck> necks = explainNecks(trace, whole);
        List<BottleGraph> slices = slice == null ? List.of(whole)
                : BottleGraphs.slices(trace, classifier, Durations.parse(slice, "--slice", "ms").toNanos(), mounts);
        String out = switch (format) {
            case "json" -> BottleJson.render(whole, slices, necks);
            case "svg" -> BottleSvg.render(slices, byGroup);
            default -> BottleTextReport.render(slices, byGroup) + BottleTextReport.renderNecks(necks);
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

    /** Needs the .jfr (lock events) and a clock offset in the .sched; otherwise there is nothing to say. */
    private List<NeckExplainer.Neck> explainNecks(SchedTrace trace, BottleGraph whole) {
        boolean jfr = file.getFileName().toString().endsWith(".jfr");
        if (!jfr || !Files.isRegularFile(file) || trace.epochOffsetNanos() == SchedTrace.UNKNOWN_OFFSET) {
            return List.of();
        }
        return NeckExplainer.explain(trace, whole, recordingWaits().intervals(trace.epochOffsetNanos()));
    }

    /** The recording's waits and Java thread names, read once for both. */
    private JfrWaits recordingWaits() {
        if (waits == null) {
            try {
                waits = JfrWaits.read(file);
                waits.warnings().forEach(w -> System.err.println("lockscope: warning: " + w));
            } catch (RecordingException e) {
                throw new UserError(e.getMessage());
            }
        }
        return waits;
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

    private JfrWaits waits;

    private SchedTrace readTrace() {
        boolean jfr = file.getFileName().toString().endsWith(".jfr");
        Path sched = jfr ? SchedFile.besideRecording(file) : file;
        if (!Files.isRegularFile(sched)) {
            throw new UserError(jfr ? "no scheduling data next to " + file + " (expected " + sched
                    + "; it is written by lockscope record)" : "no such file: " + file);
        }
        SchedTrace trace;
        try {
            trace = SchedFile.read(sched);
        } catch (NoSuchFileException e) {
            throw new UserError("no such file: " + sched);
        } catch (IOException | SchedFormatException e) {
            throw new UserError("cannot read " + sched + ": " + e.getMessage());
        }
        if (jfr && Files.isRegularFile(file)) {
            trace = trace.withNames(JfrThreadNames.merge(trace.names(), recordingWaits().javaNames()));
        }
        return trace;
    }
}
