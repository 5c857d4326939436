package dev.lockscope.agent;

import dev.lockscope.core.OptionValues;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The agent's option string: {@code -javaagent:lockscope-agent.jar=key=value,flag,...}.
 *
 * <pre>
 *   file=PATH              recording file (default lockscope-PID.jfr in the working directory)
 *   newFile                FILE must be new: when it exists (another JVM of the same `lockscope record` wrote
 *                          or writes it), record into FILE-PID.jfr instead
 *   maxSize=SIZE           the recording keeps at most this much, dropping its oldest chunks (default 512m; 0: no cap)
 *   maxAge=DURATION        the recording keeps at most this much time (default 1d; 0: no cap)
 *   threshold=DURATION     duration threshold of the JFR lock events (default 0: every contended wait)
 *   collectionThreshold=N  parks on a blocker before its metrics are collected (seed 000 §3.3.1, default 0)
 *   printThreshold=N       leave out locks with fewer parks from the table (§3.3.2, default 0)
 *   freeOnPrint            after each table, forget blockers that were garbage-collected (§3.3.3)
 *   cpuSamples=DURATION|off  JFR CPU sampling period, used to find what lock owners ran (default 20ms)
 *   jdkPark                also record JFR's jdk.ThreadPark (off by default: lockscope's Park events
 *                          cover parks on a blocker, and ThreadPark walks each parking thread's stack again)
 *   acquireEvents          also record lockscope.Acquire, one event per contended AQS acquisition (off by
 *                          default: nothing in lockscope reads it)
 *   maxBlockers=N          live records kept at most (default 50000): memory stays bounded
 *   maxBlockerMemory=SIZE  bytes the live records and their shared first stacks use at most (default 16m)
 *   report=stderr|off      print the table at JVM exit (default stderr)
 *   quiet                  no start-up line
 * Sent by `lockscope attach/dump` to a running agent:
 *   reply=PATH             write the answer for the CLI to PATH: first line "ok" or "error: why", then any table
 *   dump                   the current table (also printed on this JVM's stderr)
 *   stop                   stop recording now, write the file and print the table
 * </pre>
 */
final class AgentOptions {
    Path file;
    boolean newFile;
    long maxSizeBytes = 512L << 20;
    Duration maxAge = Duration.ofDays(1);
    Duration threshold = Duration.ZERO;
    long collectionThreshold;
    long printThreshold;
    boolean freeOnPrint;
    Duration cpuSamples = Duration.ofMillis(20);
    boolean jdkPark;
    boolean acquireEvents;
    int maxBlockers = 50_000;
    long maxBlockerMemory = dev.lockscope.agent.boot.BlockerRegistry.DEFAULT_MAX_BYTES;
    boolean reportAtExit = true;
    boolean quiet;
    Path replyTo;
    boolean dump;
    boolean stop;

    static final String KNOWN = "file, newFile, maxSize, maxAge, threshold, collectionThreshold, printThreshold, freeOnPrint, "
            + "cpuSamples, jdkPark, acquireEvents, maxBlockers, maxBlockerMemory, report, quiet, reply, dump, stop";

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
            String name = "agent option " + key; // for the messages of core's value parsers
            switch (key) {
                case "file" -> o.file = Path.of(require(key, value));
                case "newFile" -> o.newFile = flag(key, value);
                case "maxSize" -> o.maxSizeBytes = OptionValues.maxSize(name, require(key, value));
                case "maxAge" -> o.maxAge = Duration.ofNanos(OptionValues.maxAge(name, require(key, value)));
                case "threshold" -> o.threshold = Duration.ofNanos(OptionValues.threshold(name, require(key, value)));
                case "collectionThreshold" -> o.collectionThreshold = OptionValues.parkCount(name, require(key, value));
                case "printThreshold" -> o.printThreshold = OptionValues.parkCount(name, require(key, value));
                case "freeOnPrint" -> o.freeOnPrint = flag(key, value);
                case "cpuSamples" -> o.cpuSamples = "off".equals(value) ? null : Duration.ofNanos(OptionValues.cpuSamples(name, require(key, value)));
                case "jdkPark" -> o.jdkPark = flag(key, value);
                case "acquireEvents" -> o.acquireEvents = flag(key, value);
                case "maxBlockers" -> o.maxBlockers = (int) OptionValues.count(name, require(key, value), 1, 10_000_000);
                case "maxBlockerMemory" -> o.maxBlockerMemory = OptionValues.bytes(name, require(key, value), 64L << 10, 1L << 30);
                case "report" -> {
                    String v = require(key, value);
                    if (!v.equals("stderr") && !v.equals("off")) {
                        throw new IllegalArgumentException("option report must be stderr or off, not '" + v + "'");
                    }
                    o.reportAtExit = v.equals("stderr");
                }
                case "quiet" -> o.quiet = flag(key, value);
                case "reply" -> o.replyTo = Path.of(require(key, value));
                case "dump" -> o.dump = flag(key, value);
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
}
