package dev.lockscope.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Options shared by the commands that start the agent (record, attach, demo). */
final class AgentOptionsMixin {
    private static final Pattern DURATION = Pattern.compile("0|\\d+(ns|us|ms|s)");

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Recording file (default: lockscope-<date>-<time>.jfr in the current directory).")
    Path output;

    @Option(names = "--threshold", paramLabel = "DURATION", defaultValue = "0",
            description = "Record only lock waits at least this long, e.g. 10us, 1ms (default: ${DEFAULT-VALUE}, every wait).")
    String threshold;

    @Option(names = "--collection-threshold", paramLabel = "N", defaultValue = "0",
            description = "Parks on a blocker before its metrics are collected (default: ${DEFAULT-VALUE}).")
    long collectionThreshold;

    @Option(names = "--print-threshold", paramLabel = "N", defaultValue = "0",
            description = "Leave locks with fewer parks out of the table (default: ${DEFAULT-VALUE}).")
    long printThreshold;

    @Option(names = "--free-on-print",
            description = "After each table, forget blockers the GC has collected.")
    boolean freeOnPrint;

    @Option(names = "--cpu-samples", paramLabel = "DURATION|off", defaultValue = "20ms",
            description = "CPU sampling period, used to show what lock owners ran (default: ${DEFAULT-VALUE}).")
    String cpuSamples;

    @Option(names = "--sched",
            description = "Also record scheduling data (perf context switches, else /proc sampling) into <recording>.sched, "
                    + "for `lockscope bottle`. Only when COMMAND is java itself.")
    boolean sched;

    /** The recording path, absolute (a target JVM resolves relative paths against its own directory). */
    Path recordingFile() {
        Path p = output != null ? output
                : Path.of("lockscope-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".jfr");
        return p.toAbsolutePath().normalize();
    }

    /** The agent's option string; checks every value here so mistakes fail before a JVM starts. */
    String agentArgs(Path recording, String... extra) {
        if (recording.toString().contains(",")) {
            throw new UserError("the recording path may not contain a comma: " + recording);
        }
        if (!DURATION.matcher(threshold).matches()) {
            throw new UserError("--threshold must be a duration such as 0, 10us, 1ms or 1s, not '" + threshold + "'");
        }
        if (!cpuSamples.equals("off") && !DURATION.matcher(cpuSamples).matches()) {
            throw new UserError("--cpu-samples must be a duration such as 10ms, or off, not '" + cpuSamples + "'");
        }
        if (collectionThreshold < 0 || printThreshold < 0) {
            throw new UserError("thresholds must not be negative");
        }
        List<String> parts = new ArrayList<>();
        parts.add("file=" + recording);
        parts.add("threshold=" + threshold);
        parts.add("collectionThreshold=" + collectionThreshold);
        parts.add("printThreshold=" + printThreshold);
        if (freeOnPrint) {
            parts.add("freeOnPrint");
        }
        parts.add("cpuSamples=" + cpuSamples);
        parts.addAll(List.of(extra));
        return String.join(",", parts);
    }
}
