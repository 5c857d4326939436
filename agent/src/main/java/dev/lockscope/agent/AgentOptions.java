package dev.lockscope.agent;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The agent's option string: {@code -javaagent:lockscope-agent.jar=key=value,flag,...}.
 *
 * <pre>
 *   file=PATH              recording file (default lockscope-PID.jfr in the working directory)
 *   threshold=DURATION     duration threshold of the JFR lock events (default 0: every contended wait)
 *   collectionThreshold=N  parks on a blocker before its metrics are collected (seed 000 §3.3.1, default 0)
 *   printThreshold=N       leave out locks with fewer parks from the table (§3.3.2, default 0)
 *   freeOnPrint            after each table, forget blockers that were garbage-collected (§3.3.3)
 *   cpuSamples=DURATION|off  JFR CPU sampling period, used to find what lock owners ran (default 20ms)
 *   jdkPark                also record JFR's jdk.ThreadPark (off by default: lockscope's ParkBegin/ParkEnd
 *                          cover parks on a blocker, and ThreadPark walks each parking thread's stack again)
 *   acquireEvents          also record lockscope.Acquire, one event per contended AQS acquisition (off by
 *                          default: nothing in lockscope reads it)
 *   maxBlockers=N          live records kept at most (default 50000): memory stays bounded
 *   report=stderr|off      print the table at JVM exit (default stderr)
 *   quiet                  no start-up line
 * Commands sent by `lockscope attach/dump` to a running agent:
 *   dump=PATH              write the current table to PATH (and to stderr)
 *   stop                   stop recording now, write the file and print the table
 * </pre>
 */
final class AgentOptions {
    Path file;
    Duration threshold = Duration.ZERO;
    long collectionThreshold;
    long printThreshold;
    boolean freeOnPrint;
    Duration cpuSamples = Duration.ofMillis(20);
    boolean jdkPark;
    boolean acquireEvents;
    int maxBlockers = 50_000;
    boolean reportAtExit = true;
    boolean quiet;
    Path dumpTo;
    boolean stop;

    static final String KNOWN = "file, threshold, collectionThreshold, printThreshold, freeOnPrint, cpuSamples, "
            + "jdkPark, acquireEvents, maxBlockers, report, quiet, dump, stop";

    /** @throws IllegalArgumentException with a one-line message naming the bad option */
    static AgentOptions parse(String args) {
        AgentOptions o = new AgentOptions();
        if (args == null || args.isBlank()) {
            return o;
        }
        for (String part : args.split(",")) {
            String item = part.trim();
            if (item.isEmpty()) {
                continue;
            }
            int eq = item.indexOf('=');
            String key = eq < 0 ? item : item.substring(0, eq).trim();
            String value = eq < 0 ? null : item.substring(eq + 1).trim();
            switch (key) {
                case "file" -> o.file = Path.of(require(key, value));
                case "threshold" -> o.threshold = duration(key, require(key, value));
                case "collectionThreshold" -> o.collectionThreshold = nonNegative(key, require(key, value));
                case "printThreshold" -> o.printThreshold = nonNegative(key, require(key, value));
                case "freeOnPrint" -> o.freeOnPrint = flag(key, value);
                case "cpuSamples" -> o.cpuSamples = "off".equals(value) ? null : duration(key, require(key, value));
                case "jdkPark" -> o.jdkPark = flag(key, value);
                case "acquireEvents" -> o.acquireEvents = flag(key, value);
                case "maxBlockers" -> o.maxBlockers = (int) Math.min(Integer.MAX_VALUE, Math.max(1, nonNegative(key, require(key, value))));
                case "report" -> {
                    String v = require(key, value);
                    if (!v.equals("stderr") && !v.equals("off")) {
                        throw new IllegalArgumentException("option report must be stderr or off, not '" + v + "'");
                    }
                    o.reportAtExit = v.equals("stderr");
                }
                case "quiet" -> o.quiet = flag(key, value);
                case "dump" -> o.dumpTo = Path.of(require(key, value));
                case "stop" -> o.stop = flag(key, value);
                default -> throw new IllegalArgumentException("unknown agent option '" + key + "' (known: " + KNOWN + ")");
            }
        }
        return o;
    }

    private static String require(String key, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("agent option " + key + " needs a value (" + key + "=...)");
        }
        return value;
    }

    private static boolean flag(String key, String value) {
        if (value == null || value.equals("true")) {
            return true;
        }
        if (value.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException("agent option " + key + " is a flag; give it alone or as " + key + "=true|false");
    }

    private static long nonNegative(String key, String value) {
        try {
            long v = Long.parseLong(value);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the message
        }
        throw new IllegalArgumentException("agent option " + key + " must be a non-negative integer, not '" + value + "'");
    }

    /** {@code 0}, {@code 250ns}, {@code 10us}, {@code 20ms}, {@code 1s}. */
    static Duration duration(String key, String value) {
        String v = value.toLowerCase(Locale.ROOT);
        try {
            if (v.equals("0")) {
                return Duration.ZERO;
            }
            if (v.endsWith("ns")) {
                return Duration.ofNanos(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            if (v.endsWith("us")) {
                return Duration.ofNanos(Long.parseLong(v.substring(0, v.length() - 2)) * 1_000);
            }
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            if (v.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
            }
        } catch (NumberFormatException ignored) {
            // fall through to the message
        }
        throw new IllegalArgumentException("agent option " + key + " must be a duration such as 0, 10us, 20ms or 1s, not '" + value + "'");
    }
}
