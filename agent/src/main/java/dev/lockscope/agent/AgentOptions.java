package dev.lockscope.agent;

import dev.lockscope.core.OptionValues;
import dev.lockscope.core.OutputFiles;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The agent's option string: {@code -javaagent:lockscope-agent.jar=key=value,flag,...}.
 *
 * <pre>
 *   file=PATH              recording file (default lockscope-PID.jfr in the working directory)
 *   fileMode=MODE          the mode of the recording and of dump snapshots (default 0600, owner only; 0640 or
 *                          0644 share them for reading); never writable by others
 *   newFile                FILE must be new: when it exists (another JVM of the same `lockscope record` wrote
 *                          or writes it), record into FILE-PID.jfr instead; the JVM that takes FILE prints no
 *                          table at exit (`lockscope record` prints FILE's report after the command)
 *   maxSize=SIZE           the recording keeps at most this much, dropping its oldest chunks (default 512m; 0: no cap)
 *   maxAge=DURATION        the recording keeps at most this much time (default 1d; 0: no cap)
 *   threshold=DURATION     duration threshold of the JFR lock events (default 0: every contended wait)
 *   sampleBelow=DURATION   lockscope's Park events: a park shorter than this is recorded with probability
 *                          p = (its length)/DURATION and then counts 1/p times, so totals stay unbiased
 *                          (default 300us; 0: every park recorded); the table's counts and times stay exact
 *   stackBudget=N          events with a stack (lockscope's park and unpark events together) written at most a
 *                          second (default 20000; 0: no budget): a contention storm costs a bounded amount; the
 *                          events refused are counted and reported, the table's counts and times stay exact
 *   collectionThreshold=N  parks on a blocker before its metrics are collected (the J9 park-contention report §3.3.1, default 0)
 *   printThreshold=N       leave out locks with fewer parks from the table (§3.3.2, default 0)
 *   freeOnPrint            after each table, forget blockers that were garbage-collected (§3.3.3)
 *   cpuSamples=DURATION|off  JFR CPU sampling period, used to find what lock owners ran (default 20ms)
 *   cpuTime                sample by CPU time with JDK 25's jdk.CPUTimeSample (JEP 509, Linux; in Java and
 *                          native code) every cpuSamples of a thread's CPU time, instead of jdk.ExecutionSample
 *   fileIo                 also record blocking file I/O (jdk.FileRead/FileWrite from 1 ms or the threshold):
 *                          once these events are on, JFR reads the clock twice in every file read and write of
 *                          the application, whatever their threshold (a logger's appender pays it under its
 *                          lock); socket I/O is recorded always
 *   carriers               also record which virtual thread ran on which carrier when (JDK 21+, at JVM start;
 *                          `lockscope record --sched` sets it): bottle graphs split a carrier's running time by it
 *   maxBlockers=N          live records kept at most (default 50000): memory stays bounded
 *   deep=PATTERNS          deep mode: count every lock acquisition in the classes matching the patterns
 *                          (':'-separated, e.g. com.example.**:org.acme.Cache*); premain only
 *   deepExclude=PATTERNS   classes left out of deep mode
 *   delayRelease=Class.method:DURATION  the what-if experiment (lockscope whatif --measure): every release of a
 *                          lock in the methods of that name waits DURATION first, the lock held (100ns to 1s);
 *                          premain only; prints the releases it delayed at exit
 *   maxBlockerMemory=SIZE  bytes the live records and their shared first stacks use at most (default 16m)
 *   report=stderr|full|off print the table at JVM exit: the top 10 lock sites one line each (stderr, the
 *                          default), every site with its details (full), or nothing (off)
 *   quiet                  no start-up line
 *   metricsPort=[HOST:]PORT  live metrics: Prometheus text format at http://HOST:PORT/metrics (HOST default
 *                          127.0.0.1, loopback; PORT 0: any free port, named on stderr) and the JMX MXBean
 *                          dev.lockscope:type=LockContention
 *   jmx                    the MXBean only (JMX is not started otherwise: some application servers must
 *                          set up java.util.logging before anything starts the platform MBean server)
 *   continuous             for days of running: after every chunk's summaries (rotation), forget the
 *                          blockers the GC collected (the J9 park-contention report's free-on-print at each summary)
 * Sent by `lockscope attach/dump` to a running agent:
 *   reply=PATH             write the answer for the CLI to PATH: first line "ok" or "error: why", then any table
 *   dump                   the current table (also printed on this JVM's stderr)
 *   since=DURATION, out=FILE  with dump: also write the recording's last DURATION to FILE (whole JFR
 *                          chunks; recording goes on)
 *   stop                   stop recording now, write the file and print the table
 * </pre>
 */
final class AgentOptions {
    Path file;
    boolean newFile;
    int fileMode = OutputFiles.OWNER_ONLY;
    long maxSizeBytes = 512L << 20;
    Duration maxAge = Duration.ofDays(1);
    Duration threshold = Duration.ZERO;
    /** Parks shorter than this are sampled by length (ParkHooks' sampleBelowNanos). */
    Duration sampleBelow = Duration.ofNanos(300_000);
    /** Events with a stack a second at most (StackBudget); 0: no budget. */
    long stackBudget = OptionValues.DEFAULT_STACK_BUDGET;
    long collectionThreshold;
    long printThreshold;
    boolean freeOnPrint;
    Duration cpuSamples = Duration.ofMillis(20);
    boolean cpuTime;
    /** Record virtual threads' mount intervals on their carriers (CarrierMounts). */
    boolean carriers;
    /** Also record jdk.FileRead/FileWrite (RecordingSession.blockingIo). */
    boolean fileIo;
    int maxBlockers = dev.lockscope.core.FollowedLocks.DEFAULT_MAX;
    /** Deep mode's class selection, or null when deep mode is off. */
    DeepSelection deep;
    /** The what-if experiment: {@code Class.method} whose lock releases wait {@link #delayReleaseNanos}; null when off. */
    String delayReleaseSite;
    long delayReleaseNanos;
    long maxBlockerMemory = dev.lockscope.agent.boot.BlockerRegistry.DEFAULT_MAX_BYTES;
    boolean reportAtExit = true;
    /** The exit table with every lock site and its details, not only the top ones in one line each. */
    boolean fullReport;
    boolean quiet;
    Path replyTo;
    boolean dump;
    boolean stop;
    String metricsPort;
    boolean jmx;
    boolean continuous;
    Duration since;
    Path dumpTo;

    static final String KNOWN = "file, fileMode, newFile, maxSize, maxAge, threshold, sampleBelow, stackBudget, collectionThreshold, printThreshold, freeOnPrint, "
            + "cpuSamples, cpuTime, carriers, fileIo, maxBlockers, maxBlockerMemory, deep, deepExclude, delayRelease, report, quiet, metricsPort, jmx, continuous, "
            + "reply, dump, since, out, stop";

    /** @throws IllegalArgumentException with a one-line message naming the bad option */
    static AgentOptions parse(String args) {
        AgentOptions o = new AgentOptions();
        if (args == null || args.isBlank()) {
            return o;
        }
        String deep = null;
        String deepExclude = null;
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
                case "fileMode" -> o.fileMode = OutputFiles.fileMode(name, require(key, value));
                case "newFile" -> o.newFile = flag(key, value);
                case "maxSize" -> o.maxSizeBytes = OptionValues.maxSize(name, require(key, value));
                case "maxAge" -> o.maxAge = Duration.ofNanos(OptionValues.maxAge(name, require(key, value)));
                case "threshold" -> o.threshold = Duration.ofNanos(OptionValues.threshold(name, require(key, value)));
                case "sampleBelow" -> o.sampleBelow = Duration.ofNanos(OptionValues.sampleBelow(name, require(key, value)));
                case "stackBudget" -> o.stackBudget = OptionValues.stackBudget(name, require(key, value));
                case "collectionThreshold" -> o.collectionThreshold = OptionValues.parkCount(name, require(key, value));
                case "printThreshold" -> o.printThreshold = OptionValues.parkCount(name, require(key, value));
                case "freeOnPrint" -> o.freeOnPrint = flag(key, value);
                case "cpuSamples" -> o.cpuSamples = "off".equals(value) ? null : Duration.ofNanos(OptionValues.cpuSamples(name, require(key, value)));
                case "cpuTime" -> o.cpuTime = flag(key, value);
                case "carriers" -> o.carriers = flag(key, value);
                case "fileIo" -> o.fileIo = flag(key, value);
                case "maxBlockers" -> o.maxBlockers = (int) OptionValues.count(name, require(key, value), 1, 10_000_000);
                case "deep" -> deep = require(key, value);
                case "deepExclude" -> deepExclude = require(key, value);
                case "delayRelease" -> {
                    String v = require(key, value);
                    int colon = v.lastIndexOf(':');
                    int dot = colon < 0 ? -1 : v.lastIndexOf('.', colon);
                    if (dot <= 0 || dot == colon - 1) {
                        throw new IllegalArgumentException("agent option delayRelease must be Class.method:DURATION, not '" + v + "'");
                    }
                    o.delayReleaseSite = v.substring(0, colon);
                    o.delayReleaseNanos = OptionValues.durationNanos(name, v.substring(colon + 1), 100, 1_000_000_000);
                }
                case "maxBlockerMemory" -> o.maxBlockerMemory = OptionValues.bytes(name, require(key, value), 64L << 10, 1L << 30);
                case "report" -> {
                    String v = require(key, value);
                    if (!v.equals("stderr") && !v.equals("full") && !v.equals("off")) {
                        throw new IllegalArgumentException("option report must be stderr, full or off, not '" + v + "'");
                    }
                    o.reportAtExit = !v.equals("off");
                    o.fullReport = v.equals("full");
                }
                case "quiet" -> o.quiet = flag(key, value);
                case "reply" -> o.replyTo = Path.of(require(key, value));
                case "dump" -> o.dump = flag(key, value);
                case "stop" -> o.stop = flag(key, value);
                case "metricsPort" -> {
                    o.metricsPort = require(key, value);
                    metricsAddress(o.metricsPort); // checked now, so a typo is one line at start
                }
                case "jmx" -> o.jmx = flag(key, value);
                case "continuous" -> o.continuous = flag(key, value);
                case "since" -> o.since = Duration.ofNanos(OptionValues.maxAge(name, require(key, value)));
                case "out" -> o.dumpTo = Path.of(require(key, value));
                default -> throw new IllegalArgumentException("unknown agent option '" + key + "' (known: " + KNOWN + ")");
            }
        }
        if (deep != null) {
            o.deep = DeepSelection.parse(deep, deepExclude);
        } else if (deepExclude != null) {
            throw new IllegalArgumentException("agent option deepExclude needs deep as well");
        }
        return o;
    }

    /** {@code PORT} (loopback), {@code HOST:PORT} or {@code [IPv6]:PORT}. */
    static java.net.InetSocketAddress metricsAddress(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = colon < 0 ? "127.0.0.1" : hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        String portText = hostPort.substring(colon + 1);
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535 || host.isEmpty()) {
            throw new IllegalArgumentException("agent option metricsPort must be PORT or HOST:PORT with PORT 0-65535, not '"
                    + hostPort + "'");
        }
        return new java.net.InetSocketAddress(host, port);
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
