package dev.lockscope.cli;

import dev.lockscope.core.OptionValues;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** Options shared by the commands that start the agent (record, attach, demo). */
final class AgentOptionsMixin {
    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Recording file (default: lockscope-<date>-<time>.jfr in the current directory).")
    Path output;

    @Option(names = "--threshold", paramLabel = "DURATION", defaultValue = "0",
            description = "Record only lock waits at least this long, e.g. 10us, 1ms (default: ${DEFAULT-VALUE}, every wait).")
    String threshold;

    @Option(names = "--sample-below", paramLabel = "DURATION", defaultValue = "300us",
            description = "Record a java.util.concurrent lock wait shorter than this with probability p = (its length)/DURATION, "
                    + "each recorded one then counted 1/p times: blame and profiles stay unbiased, the table exact; "
                    + "a pool worker's idle wait is sampled so below 10 ms, or DURATION if longer "
                    + "(0: record every wait; default: ${DEFAULT-VALUE}).")
    String sampleBelow;

    @Option(names = "--stack-budget", paramLabel = "N", defaultValue = "" + OptionValues.DEFAULT_STACK_BUDGET,
            description = "Write at most N lock wait and release events with a call chain a second (java.util.concurrent "
                    + "locks): a contention storm costs a bounded amount; the events refused are counted and every report "
                    + "says how many; the table stays exact (0: no budget; default: ${DEFAULT-VALUE}).")
    String stackBudget;

    @Option(names = "--collection-threshold", paramLabel = "N", defaultValue = "0",
            description = "Parks on a blocker before its metrics are collected (default: ${DEFAULT-VALUE}).")
    String collectionThreshold;

    @Option(names = "--print-threshold", paramLabel = "N", defaultValue = "0",
            description = "Leave locks with fewer parks out of the table (default: ${DEFAULT-VALUE}).")
    String printThreshold;

    @Option(names = "--max-size", paramLabel = "SIZE", defaultValue = "512m",
            description = "Keep at most this much recording, dropping the oldest data (e.g. 100m, 2g; 0: no cap; "
                    + "default: ${DEFAULT-VALUE}).")
    String maxSize;

    @Option(names = "--max-age", paramLabel = "DURATION", defaultValue = "1d",
            description = "Keep at most this much time of recording, dropping the oldest data (e.g. 30m, 6h; 0: no cap; "
                    + "default: ${DEFAULT-VALUE}).")
    String maxAge;

    @Option(names = "--free-on-print",
            description = "After each table, forget blockers the GC has collected.")
    boolean freeOnPrint;

    @Option(names = "--cpu-samples", paramLabel = "DURATION|off", defaultValue = "20ms",
            description = "CPU sampling period, used to show what lock owners ran (default: ${DEFAULT-VALUE}).")
    String cpuSamples;

    @Option(names = "--metrics-port", paramLabel = "[HOST:]PORT",
            description = "Serve live lock metrics in Prometheus' text format at http://HOST:PORT/metrics (HOST default "
                    + "127.0.0.1; PORT 0: any free port, named on stderr) and as the JMX MXBean dev.lockscope:type=LockContention.")
    String metricsPort;

    @Option(names = "--continuous",
            description = "For days of running: after every recording chunk, forget the records of blockers the GC "
                    + "collected (use with --max-size/--max-age, which bound the disk).")
    boolean continuous;

    @Option(names = "--cpu-time",
            description = "Sample threads by CPU time used (JDK 25's jdk.CPUTimeSample, Linux; Java and native code) "
                    + "every --cpu-samples of CPU, instead of JFR's execution samples; older JDKs keep execution samples.")
    boolean cpuTime;

    @Option(names = "--file-io",
            description = "Also record blocking file reads and writes of 1 ms or more (socket I/O is always recorded): "
                    + "owner blame then sees a lock owner that waits for the disk, and profiles show file I/O time. "
                    + "Costs two clock reads in every file read and write of the application (a few percent of a "
                    + "logging-heavy program's CPU).")
    boolean fileIo;

    @Option(names = "--sched",
            description = "Also record scheduling data (perf context switches, else /proc sampling) into <recording>.sched, "
                    + "for `lockscope bottle`, and which virtual thread ran on which carrier when (JDK 21+). Only when COMMAND "
                    + "is java itself.")
    boolean sched;

    @Option(names = "--deep", paramLabel = "PATTERN", split = ",",
            description = "Deep mode: count every lock acquisition (monitors, synchronized methods, wait/notify, "
                    + "java.util.concurrent locks) in the classes matching PATTERN, e.g. 'com.example.**' (package and "
                    + "subpackages), 'com.example.*' (that package), 'com.example.Cache*'. Repeatable. Costs time on every "
                    + "acquisition there: for test and staging runs. Only with the agent at JVM start (record, demo).")
    List<String> deep = new ArrayList<>();

    @Option(names = "--deep-exclude", paramLabel = "PATTERN", split = ",",
            description = "Classes left out of --deep (same patterns). Repeatable.")
    List<String> deepExclude = new ArrayList<>();

    @Mixin
    FileModeMixin fileMode;

    /** The recording path, absolute (a target JVM resolves relative paths against its own directory). */
    Path recordingFile() {
        Path p = output != null ? output
                : Path.of("lockscope-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".jfr");
        return p.toAbsolutePath().normalize();
    }

    long collectionThreshold() {
        return checked(() -> OptionValues.parkCount("--collection-threshold", collectionThreshold));
    }

    long printThreshold() {
        return checked(() -> OptionValues.parkCount("--print-threshold", printThreshold));
    }

    /**
     * The agent's option string; checks every value here, with the agent's own ranges (core's
     * OptionValues), so mistakes fail before a JVM starts.
     */
    String agentArgs(Path recording, String... extra) {
        if (recording.toString().contains(",")) {
            throw new UserError("the recording path may not contain a comma: " + recording);
        }
        checked(() -> OptionValues.threshold("--threshold", threshold));
        checked(() -> OptionValues.sampleBelow("--sample-below", sampleBelow));
        if (!cpuSamples.equals("off")) {
            checked(() -> OptionValues.cpuSamples("--cpu-samples", cpuSamples));
        }
        checked(() -> OptionValues.stackBudget("--stack-budget", stackBudget));
        checked(() -> OptionValues.maxSize("--max-size", maxSize));
        checked(() -> OptionValues.maxAge("--max-age", maxAge));
        List<String> parts = new ArrayList<>();
        parts.add("file=" + recording);
        if (fileMode.agentOption() != null) {
            parts.add(fileMode.agentOption());
        }
        parts.add("threshold=" + threshold);
        parts.add("sampleBelow=" + sampleBelow);
        parts.add("stackBudget=" + stackBudget);
        parts.add("collectionThreshold=" + collectionThreshold());
        parts.add("printThreshold=" + printThreshold());
        if (freeOnPrint) {
            parts.add("freeOnPrint");
        }
        if (metricsPort != null) {
            checked(() -> {
                try {
                    return dev.lockscope.core.OptionValues.count("--metrics-port", metricsPort.substring(metricsPort.lastIndexOf(':') + 1), 0, 65535);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--metrics-port must be PORT or HOST:PORT with PORT 0-65535, not '" + metricsPort + "'");
                }
            });
            parts.add("metricsPort=" + metricsPort);
        }
        if (continuous) {
            parts.add("continuous");
        }
        parts.add("cpuSamples=" + cpuSamples);
        if (cpuTime) {
            parts.add("cpuTime");
        }
        if (fileIo) {
            parts.add("fileIo");
        }
        if (sched) {
            parts.add("carriers"); // which virtual thread ran on which carrier: the bottle graph splits carriers by it
        }
        parts.add("maxSize=" + maxSize);
        parts.add("maxAge=" + maxAge);
        if (!deep.isEmpty()) {
            parts.add("deep=" + String.join(":", deep));
            if (!deepExclude.isEmpty()) {
                parts.add("deepExclude=" + String.join(":", deepExclude));
            }
        } else if (!deepExclude.isEmpty()) {
            throw new UserError("--deep-exclude needs --deep");
        }
        for (String pattern : deep.isEmpty() ? List.<String>of() : concat(deep, deepExclude)) {
            if (!pattern.matches("[\\w.$*]+")) {
                throw new UserError("--deep pattern '" + pattern + "' may hold only letters, digits, _, $, dots and * or ** wildcards");
            }
        }
        parts.addAll(List.of(extra));
        return String.join(",", parts);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** An option value checked by core's parser: its one-line message becomes a {@link UserError}. */
    static long checked(java.util.function.LongSupplier parse) {
        try {
            return parse.getAsLong();
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }
}
