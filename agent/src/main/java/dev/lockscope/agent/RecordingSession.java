package dev.lockscope.agent;

import dev.lockscope.core.EventNames;
import dev.lockscope.agent.boot.BlockerRecord;
import dev.lockscope.agent.boot.BlockerRegistry;
import dev.lockscope.agent.boot.CollectedTally;
import dev.lockscope.agent.boot.HookFailures;
import dev.lockscope.agent.boot.LockSummaries;
import dev.lockscope.agent.boot.HookActivation;
import dev.lockscope.agent.boot.ParkEventTimes;
import dev.lockscope.agent.boot.ParkSampling;
import dev.lockscope.agent.boot.StackBudget;
import dev.lockscope.agent.boot.ParkHooks;
import dev.lockscope.agent.boot.VirtualThreadHooks;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockSites;
import dev.lockscope.core.LockFindings;
import dev.lockscope.core.LockLabels;
import dev.lockscope.core.LockTable;
import dev.lockscope.core.OptionValues;
import dev.lockscope.core.OutputFiles;
import dev.lockscope.core.ParkTally;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** The one JFR recording the agent runs, and the contention table built from it and the live records. */
final class RecordingSession {
    /**
     * JFR's own lock events. Not {@code jdk.ThreadPark}: lockscope's Park events record the same
     * parks (those on a blocker) with the blocker's identity, and ThreadPark would walk every parking
     * thread's stack a second time (JfrStackTrace::record_safe was the top native frame of the agent's
     * cost on an ArrayBlockingQueue pipeline). Nothing in lockscope needs it: the report and blame
     * read lockscope's events, and {@code lockscope bottle} falls back to them when a recording has no
     * ThreadPark (a recording made by JFR alone may have it, and the reader reads it there).
     */
    static final String[] JDK_LOCK_EVENTS = {EventNames.MONITOR_ENTER, EventNames.MONITOR_WAIT, EventNames.THREAD_SLEEP};

    private static final String NAME = "lockscope";
    private static final Duration MIN_IO_THRESHOLD = Duration.ofMillis(1);
    /** How often the CPU times of steal accounting are sampled (Hofer §5.4: shorter periods did not help). */
    static final Duration CPU_TIME_PERIOD = Duration.ofSeconds(1);
    /** The longest JFR's shutdown hook may take writing our recording before the exit table goes without it. */
    private static final long EXIT_WRITE_LIMIT_MILLIS = 120_000;

    private final AgentOptions options;
    private final Recording recording = new Recording();
    private final Path file;
    /**
     * When the recording began, as JFR says (its first chunk's start): the start of "total execution time", the start
     * of the span {@code lockscope report} divides by. Not the session's creation (enabling the settings and starting
     * JFR take 50-150 ms; the exit table's %real read up to 5% lower than the report's on a 2-s run), nor the return of
     * {@code start()}, which comes 20-70 ms after the chunk's start.
     */
    private volatile long startNanos = System.nanoTime();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch written = new CountDownLatch(1);
    private volatile boolean stopped;
    private volatile String stopReason;
    /**
     * When the recording written ends: our dump's moment, or JFR's stop when its shutdown hook wrote it; the end of
     * the span the tables divide by once stopped, as {@code lockscope report} divides by the recording's span (the
     * last events JFR writes, at the chunk's end, came 5-10 ms after profiling stopped: 1.4 points of %real on a
     * 0.2-s run). When profiling stopped (the application's time, not our exit work) until the recording is written.
     */
    private volatile long recordingEndNanos;
    private volatile DiskGuard diskGuard;
    /** The live metrics' monitor waits, fed by an in-process event stream; null without live metrics. */
    private MonitorContention liveMonitors;
    /** The monitor part of the table once stopped, read from the written recording the first time a table asks. */
    private volatile MonitorContention monitorsAtStop;
    /** The park tallies the recording's last {@code lockscope.LockSummary} events were written from, once stopped. */
    private volatile LockSummaries.Snapshot parksAtStop;
    private volatile MetricsEndpoint metricsEndpoint;
    private final boolean commandsRecording;

    RecordingSession(AgentOptions options) throws IOException {
        this.options = options;
        Path wanted = (options.file != null ? options.file : Path.of("lockscope-" + ProcessHandle.current().pid() + ".jfr"))
                .toAbsolutePath();
        this.file = options.newFile ? claimNew(wanted, options.fileMode) : wanted;
        this.commandsRecording = options.newFile && file.equals(wanted);
    }

    /**
     * Whether this JVM took the recording {@code lockscope record} was asked for ({@code newFile}, the first JVM of
     * the command): {@code record} prints that recording's report once the command ends, findings first, the
     * table after them, so this JVM prints no table of its own at exit; a further JVM of the command (its own
     * {@code FILE-PID.jfr}) does.
     */
    boolean isCommandsRecording() {
        return commandsRecording;
    }

    /**
     * {@code file} if it does not exist yet, created now; otherwise {@code file-PID.jfr}. Under one
     * {@code lockscope record} of a wrapper (mvn, gradle, a script) every JVM gets the same option
     * string: the first to create the file keeps it, and each further JVM, started alongside or later,
     * writes its own file instead of overwriting the other's.
     */
    static Path claimNew(Path file, int mode) throws IOException {
        Path parent = file.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            // atomic: exactly one JVM succeeds; O_EXCL, so a symlink there counts as taken and is not followed
            return OutputFiles.createFile(file, mode);
        } catch (FileAlreadyExistsException taken) {
            String name = file.getFileName().toString();
            String stem = name.endsWith(".jfr") ? name.substring(0, name.length() - 4) : name;
            Path own = file.resolveSibling(stem + "-" + ProcessHandle.current().pid() + ".jfr");
            LockscopeAgent.log(file + " is another JVM's recording of this command; this JVM (pid "
                    + ProcessHandle.current().pid() + ") records into " + own);
            return own;
        }
    }

    /** {@link System#nanoTime()} at {@code instant} (a recent one), or now when it is not known. */
    static long nanoTimeAt(java.time.Instant instant) {
        long now = System.nanoTime();
        if (instant == null) {
            return now;
        }
        return now - Duration.between(instant, java.time.Instant.now()).toNanos();
    }

    /**
     * The blocking I/O recorded, at least 1 ms (or the threshold) long, with stacks: how owner blame sees a lock owner
     * off CPU in I/O, and a wall-clock profile's I/O time. Socket I/O always; file I/O only with {@code fileIo},
     * because once {@code jdk.FileRead/FileWrite} are enabled JFR's instrumentation of the file streams reads the
     * clock twice in every read and write, whatever the threshold: on a logger that writes each line under its
     * appender's monitor that was about 5% of the application's CPU, paid inside the critical section
     * (docs/agent-cost.md).
     */
    static List<String> blockingIo(boolean fileIo) {
        return fileIo ? EventNames.BLOCKING_IO : EventNames.SOCKET_IO;
    }

    Path file() {
        return file;
    }

    /** A running recording named lockscope that no session of this agent class owns: another agent jar's. */
    static boolean runningElsewhere() {
        return FlightRecorder.isInitialized() && FlightRecorder.getFlightRecorder().getRecordings().stream()
                .anyMatch(r -> r.getName().equals(NAME) && r.getState() == RecordingState.RUNNING);
    }

    void start() throws IOException {
        recording.setName(NAME);
        for (String name : JDK_LOCK_EVENTS) {
            recording.enable(name).withThreshold(options.threshold).withStackTrace();
        }
        // One event per park at least the threshold long, those shorter than sampleBelow sampled by length;
        // the exact totals of all parks are in the summaries written at every chunk end (see ParkEvent and
        // LockSummaryEvent for the schema).
        ParkHooks.setThresholdNanos(options.threshold.toNanos());
        ParkSampling.setSampleBelowNanos(options.sampleBelow.toNanos());
        StackBudget.setPerSecond(options.stackBudget); // events with a stack a second; the refused ones counted
        recording.enable(EventNames.PARK).withThreshold(options.threshold).withStackTrace();
        // the parks of blockers first parked on where a worker waits for work: no stack (IdleParkEvent)
        recording.enable(EventNames.IDLE_PARK).withThreshold(options.threshold);
        recording.enable(EventNames.UNPARK).withStackTrace();
        recording.enable(EventNames.CONDITION_UNPARK); // the unparks of Condition waiters: no stack (ConditionUnparkEvent)
        recording.enable(EventNames.LOCK_SUMMARY).with("period", "endChunk");
        recording.enable(EventNames.STACK_BUDGET); // written with each batch of summaries
        // virtual threads: monitor waits while unmounted (JDK 24+, VirtualThreadTransformer) and
        // every pinning with its stack, not only JFR's default of 20 ms (JDK 21+; unknown names are ignored)
        recording.enable(EventNames.VIRTUAL_MONITOR_ENTER).withThreshold(options.threshold);
        recording.enable(EventNames.VIRTUAL_THREAD_PINNED).withThreshold(options.threshold).withStackTrace();
        if (options.carriers) {
            recording.enable(EventNames.CARRIER_MOUNT); // every mount interval: no threshold
        }
        // the virtual-thread scheduler's parallelism, for carrier starvation (once per chunk)
        recording.enable(EventNames.INITIAL_SYSTEM_PROPERTY);
        recording.enable(EventNames.CPU_INFORMATION);
        recording.enable(EventNames.CONTAINER_CONFIGURATION);
        if (options.deep != null) {
            // deep mode's statistics, exact totals at every chunk end (DeepSummaries writes all three)
            recording.enable(EventNames.DEEP_INFO).with("period", "endChunk");
            recording.enable(EventNames.DEEP_LOCK);
            recording.enable(EventNames.DEEP_SITE);
            recording.enable(EventNames.DEEP_RELEASE).withStackTrace(); // contended monitor releases only
        }
        // steal accounting: every thread's and the machine's CPU times from /proc, once a second
        CpuTimeSampler.register();
        recording.enable(EventNames.THREAD_CPU);
        recording.enable(EventNames.MACHINE_CPU).withPeriod(CPU_TIME_PERIOD);
        recording.enable(EventNames.THREAD_START);
        recording.enable(EventNames.THREAD_END);
        recording.enable("jdk.JavaThreadStatistics").withPeriod(Duration.ofSeconds(1));
        if (options.cpuSamples != null && options.cpuTime && hasEventType(EventNames.CPU_TIME_SAMPLE)) {
            recording.enable(EventNames.CPU_TIME_SAMPLE).withStackTrace()
                    .with("throttle", OptionValues.formatNanos(options.cpuSamples.toNanos()));
        } else if (options.cpuSamples != null) {
            if (options.cpuTime) {
                LockscopeAgent.log("cpuTime: this JVM has no jdk.CPUTimeSample (JDK 25 and later, on Linux): "
                        + "execution samples instead");
            }
            recording.enable(EventNames.EXECUTION_SAMPLE).withPeriod(options.cpuSamples);
        }
        // profiles (lockscope profile --wall): the sampling period as JFR applied it, and blocking I/O,
        // the off-CPU time beside lock, park, wait and sleep; I/O at 1 ms or more, so that an
        // application reading many small files does not fill the recording
        recording.enable(EventNames.ACTIVE_SETTING);
        // each chunk names its recordings' destinations: the chunk a kill -9 leaves is found from the empty file
        recording.enable(EventNames.ACTIVE_RECORDING);
        Duration ioThreshold = options.threshold.compareTo(MIN_IO_THRESHOLD) < 0 ? MIN_IO_THRESHOLD : options.threshold;
        for (String io : blockingIo(options.fileIo)) {
            recording.enable(io).withThreshold(ioThreshold).withStackTrace();
        }
        Path parent = file.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (!options.newFile) {
            // JFR opens its destination through symlinks and truncates it (WriteablePath): give it a file of
            // our own, empty, with the file mode, in place of whatever is there (a symlink is replaced, its
            // target untouched). claimNew made it already under newFile.
            OutputFiles.write(file, new byte[0], options.fileMode);
        }
        recording.setToDisk(true);
        // Bounded by construction: JFR deletes the oldest chunks of this recording from its repository
        // beyond these (the repository then holds at most maxSize plus the chunk being written).
        if (options.maxSizeBytes > 0) {
            recording.setMaxSize(options.maxSizeBytes);
        }
        if (!options.maxAge.isZero()) {
            recording.setMaxAge(options.maxAge);
        }
        // The destination is for JFR's own shutdown hook: if it stops the recording before our hook
        // writes it (see stop), it writes the file itself.
        recording.setDestination(file);
        DiskGuard guard = DiskGuard.beforeStart(this, file); // before JFR's first write, which on a full disk ends the VM
        recording.start();
        startNanos = nanoTimeAt(recording.getStartTime());
        // with lockscope.Park enabled now: whether park events can take their times from the tally's clock reads
        ParkEventTimes.calibrate();
        FlightRecorder.addListener(sharedRecordingNotice);
        diskGuard = guard.start();
        boolean live = options.metricsPort != null || options.jmx;
        if (live) {
            liveMonitors = MonitorContention.live(options.threshold, options.maxBlockers);
        }
        LockSummaries.setFreeCollected(options.continuous);
        if (options.metricsPort != null) {
            metricsEndpoint = MetricsEndpoint.start(options.metricsPort, this::liveMetrics);
        }
        if (live) {
            MetricsEndpoint.registerMBean(this::liveMetrics);
        }
    }

    /**
     * The live numbers of the metrics endpoint and the MBean: the table's locks now (without waiting
     * for JFR's next flush: a scrape sees monitor waits up to about a second late).
     */
    LiveMetrics.Snapshot liveMetrics() {
        long execNanos = (stopped ? recordingEndNanos : System.nanoTime()) - startNanos;
        LockSummaries.Snapshot parks = stopped && parksAtStop != null ? parksAtStop : LockSummaries.snapshot();
        List<LockMetrics> locks = parkMetrics(parks, execNanos, 1);
        MonitorContention monitors = liveMonitors;
        locks.addAll(monitors.metrics(execNanos));
        long pinned = Runtime.version().feature() >= 21 ? monitors.pinnedNanos() : -1;
        long[] refused = StackBudget.refused();
        return LiveMetrics.snapshot(locks, siteRealTimes(parks, monitors, execNanos), monitors.ownerMethods(), BlockerRegistry.untracked(), pinned,
                HookFailures.count(), refused[0], refused[2], stopped ? 0 : recordingSize());
    }

    /** Each lock site's real-time, the union of its objects' waits (parks and monitors), by {@link LockSites#keyOf}. */
    private static Map<String, Long> siteRealTimes(LockSummaries.Snapshot parks, MonitorContention monitors, long execNanos) {
        Map<String, Long> out = new HashMap<>(parks.siteRealTimes());
        if (monitors != null) {
            out.putAll(monitors.siteRealTimes(execNanos));
        }
        return out;
    }

    /**
     * The park rows of a snapshot: blockers collecting, with at least {@code minParks} parks, and a row per
     * site for the collected blockers the registry dropped.
     */
    private List<LockMetrics> parkMetrics(LockSummaries.Snapshot parks, long execNanos, long minParks) {
        List<LockMetrics> locks = new ArrayList<>();
        for (LockSummaries.Entry e : parks.entries()) {
            ParkTally t = e.tally();
            BlockerRecord r = e.record();
            if (t.timesParked == 0 || t.timesParked < minParks || !t.collecting) {
                continue;
            }
            locks.add(new LockMetrics(LockKind.PARK, r.className, Integer.toHexString(r.identityHash),
                    r.firstThread(), Arrays.asList(r.firstFrames()), t, execNanos));
        }
        // blockers the GC collected: one row per site, which the table's site row sums with the live ones
        for (CollectedTally c : parks.collected()) {
            locks.add(new LockMetrics(LockKind.PARK, c.className(), c.site(), c.firstThread(), Arrays.asList(c.firstFrames()),
                    c.tally(), execNanos, c.objects()));
        }
        return locks;
    }

    /**
     * {@code lockscope dump --since}: the recording's data from {@code since} ago until now into
     * {@code to}, while recording goes on. Through JFR's own {@code JFR.dump begin=} (the
     * DiagnosticCommand MBean), which keeps whole chunks: the file starts at the beginning of the chunk
     * that was being written {@code since} ago.
     */
    void dumpSince(Duration since, Path to) throws Exception {
        if (stopped) {
            throw new IllegalStateException("profiling has stopped; the whole recording is in " + file);
        }
        Path parent = to.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        // JFR.dump follows a symlink at its file name: it writes a new file of ours, renamed over `to` when complete
        Path part = OutputFiles.partFor(to, options.fileMode);
        try {
            String begin = java.time.Instant.now().minus(since).toString();
            var server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            Object answer = server.invoke(new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "jfrDump",
                    new Object[]{new String[]{"name=" + recording.getId(), "filename=" + part, "begin=" + begin}},
                    new String[]{String[].class.getName()});
            if (Files.size(part) == 0) {
                throw new IOException("JFR wrote no data to " + to + (answer == null ? "" : ": " + answer.toString().strip()));
            }
            OutputFiles.moveOnto(part, to);
        } finally {
            Files.deleteIfExists(part);
        }
    }

    private static boolean hasEventType(String name) {
        return FlightRecorder.getFlightRecorder().getEventTypes().stream().anyMatch(t -> t.getName().equals(name));
    }

    /**
     * Says once per recording when the application runs a JFR recording of its own at the same time.
     * JFR keeps one stream of chunks for all running recordings and merges their settings per event
     * (enabled if any enables it, the lowest threshold, stack traces if any wants them; JDK 17 and 25,
     * jdk.jfr.internal.settings), so that recording also receives lockscope's events and JFR's lock
     * events below its own threshold while lockscope records. Nothing outside JFR can separate them.
     */
    private final FlightRecorderListener sharedRecordingNotice = new FlightRecorderListener() {
        private final java.util.Set<Long> told = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Override
        public void recordingStateChanged(Recording other) {
            // JFR calls listeners on the thread that changed the state: our own monitor stream starts on its own thread
            boolean ours = other == recording || Thread.currentThread().getName().equals(MonitorContention.THREAD_NAME);
            if (!ours && other.getState() == RecordingState.RUNNING && !stopped && told.add(other.getId())) {
                LockscopeAgent.log("JFR recording '" + other.getName() + "' runs alongside lockscope's: while both run it also "
                        + "gets lockscope's events and lock waits down to lockscope's threshold (JFR merges the settings of "
                        + "concurrent recordings)");
            }
        }
    };

    /**
     * Stops profiling and writes the recording once; returns false when it was already stopped.
     * Safe against JFR's shutdown hook, which at JVM exit stops every running recording, writes its
     * destination and then deletes the chunk repository. {@code Recording.stop()} copies the chunks
     * to the destination after releasing JFR's recorder lock, so that hook could delete them midway
     * ("Missing chunkfile", an empty or truncated file: the lost recordings of the exit race).
     * {@code Recording.dump} snapshots and copies under that lock (PlatformRecording.dump, the same on
     * JDK 17 and 25), and the hook holds it for its whole stop-write-delete; so exactly one of the two
     * writes a complete file: our dump, or, when the hook came first, the hook (our recording is then
     * CLOSED and the dump is refused).
     *
     * @param why null for a normal stop, otherwise the one-line reason printed (e.g. a full disk)
     */
    boolean stop(String why) {
        if (!stopping.compareAndSet(false, true)) {
            if (diskGuard == null || Thread.currentThread() != diskGuard.thread()) {
                awaitWritten(); // the table after a stop reads the file
            }
            return false;
        }
        try {
            stopReason = why;
            recordingEndNanos = System.nanoTime();
            stopped = true;
            HookActivation.deactivate();
            VirtualThreadHooks.deactivate(); // commits the virtual-thread waits that have ended
            dev.lockscope.agent.boot.CarrierMounts.deactivate(); // and the mount intervals
            dev.lockscope.agent.boot.EventCommitter.stop(); // their committing thread: none left after attach --stop
            if (metricsEndpoint != null) {
                metricsEndpoint.close();
            }
            if (diskGuard != null && Thread.currentThread() != diskGuard.thread()) {
                diskGuard.stop();
            }
            if (liveMonitors != null) {
                // the monitor waits that ended before the stop, for the last scrapes: flushed by the running
                // recording, or, when JFR's shutdown hook is stopping everything, the stream's last events
                if (recording.getState() == RecordingState.RUNNING) {
                    liveMonitors.awaitFlush(Duration.ofSeconds(3));
                } else {
                    liveMonitors.awaitEnd(Duration.ofSeconds(3));
                }
            }
            String problem = null;
            try {
                if (recording.getState() != RecordingState.RUNNING) {
                    throw new IOException("JFR stopped it"); // JFR's shutdown hook is writing it: wait for that below
                }
                // the summaries the dump ended with; read before the destination is cleared, since JFR's hook
                // may stop the recording right after (it then writes summaries to no file of ours)
                LockSummaries.Snapshot[] dumped = new LockSummaries.Snapshot[1];
                recordingEndNanos = System.nanoTime(); // the dump's chunk ends now
                if (!writeOnce(recording, file, options.fileMode, () -> dumped[0] = LockSummaries.lastWritten())) {
                    throw new IOException("JFR stopped it"); // after our dump: the hook writes the whole recording
                }
                parksAtStop = dumped[0];
                if (Files.size(file) == 0) {
                    problem = "the recording written to " + file + " is empty" + DiskGuard.freeSpace(file);
                }
            } catch (IOException | RuntimeException e) {
                if (!waitUntilClosed()) {
                    problem = "the recording could not be written to " + file + ": " + e.getMessage() + DiskGuard.freeSpace(file);
                }
                // JFR's shutdown hook stopped the recording and wrote it: the summaries written last are the ones
                // the file ends with (ours is then closed and writes none later)
                parksAtStop = LockSummaries.lastWritten();
                if (recording.getStopTime() != null) {
                    recordingEndNanos = nanoTimeAt(recording.getStopTime());
                }
            }
            recording.close();
            FlightRecorder.removeListener(sharedRecordingNotice);
            if (why != null) {
                LockscopeAgent.log("stopped recording: " + why + "; the recording up to now is in " + file);
            }
            if (diskGuard != null && diskGuard.trimmed()) {
                LockscopeAgent.log("the recording reached its cap (maxSize " + OptionValues.formatBytes(options.maxSizeBytes)
                        + ", maxAge " + OptionValues.formatNanos(options.maxAge.toNanos()) + "): it holds the latest part of the run only");
            }
            if (problem != null) {
                LockscopeAgent.log(problem);
            }
        } finally {
            written.countDown();
            if (liveMonitors != null) {
                liveMonitors.close();
            }
        }
        return true;
    }

    /**
     * Dumps the running recording to {@code file} unless JFR's shutdown hook writes it: true when our dump is
     * the file, false when the hook stopped the recording after {@code afterDump} and writes the whole
     * recording there itself. Our dump goes to a file beside the recording, moved over it only once the
     * destination is cleared: JFR's hook writes the destination by appending to the file as it was at our
     * start, so a hook that stopped the recording between a dump into the file itself and the clearing of
     * the destination appended every chunk a second time (DeepModeIT on CI: 40 monitor waits for 20, once
     * the agent's exit no longer waited for its monitor stream's flush first).
     */
    static boolean writeOnce(Recording recording, Path file, int mode, Runnable afterDump) throws IOException {
        // new, with a random name and the file mode: JFR's dump follows a symlink at its path and truncates its target
        Path part = OutputFiles.partFor(file, mode);
        try {
            recording.dump(part);
            afterDump.run();
            try {
                recording.setDestination(null); // JFR's hook must not write the file now
            } catch (IOException | IllegalStateException stoppedByJfr) {
                return false;
            }
            OutputFiles.moveOnto(part, file);
            return true;
        } finally {
            deleteQuietly(part);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // left beside the recording; the recording itself is what matters
        }
    }

    private void awaitWritten() {
        try {
            written.await(EXIT_WRITE_LIMIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Why the disk guard stopped the recording, or null. */
    String stopReason() {
        return stopReason;
    }

    /**
     * After our dump was refused: true once JFR's shutdown hook has written the file (the recording is
     * CLOSED only after its destination was written), false when the write failed or took too long.
     */
    private boolean waitUntilClosed() {
        long deadline = System.nanoTime() + EXIT_WRITE_LIMIT_MILLIS * 1_000_000L;
        while (System.nanoTime() < deadline) {
            RecordingState state = recording.getState();
            if (state == RecordingState.CLOSED) {
                return true;
            }
            if (state != RecordingState.STOPPED || !jfrShutdownHookAlive()) {
                return false; // still running (the dump failed on its own) or the hook gave up writing
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private static boolean jfrShutdownHookAlive() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 16];
        int n = root.enumerate(threads, true);
        for (int i = 0; i < n; i++) {
            if (threads[i].getName().equals("JFR Shutdown Hook")) {
                return true;
            }
        }
        return false;
    }

    boolean isStopped() {
        return stopped;
    }

    /** Bytes of the recording's finished chunks now (JFR's count; it goes down when the caps drop old chunks). */
    long recordingSize() {
        return recording.getSize();
    }

    /**
     * The table now: the live park tallies and the live monitor waits. Once stopped, the park part is
     * the snapshot the recording's last {@code lockscope.LockSummary} events were written from (JFR
     * writes them when the recording stops), so {@code lockscope report} prints the same numbers.
     */
    String table(String title) {
        return table(title, true, null);
    }

    /**
     * The same under its findings ({@link LockFindings#text}, titled {@code findingsTitle}): each lock row of
     * contention with at least {@link LockTable#FINDING_PCT} of the wall time, as {@code lockscope report} opens with
     * them (without who held each lock: that is owner blame, which only the report computes).
     */
    String table(String title, String findingsTitle) {
        return table(title, true, findingsTitle);
    }

    /**
     * The table's monitor waits, read from the recording as {@code lockscope report} reads them: once
     * stopped, the written file (read once); while recording, a dump of it so far into a file beside it,
     * deleted once read. Null, with a note saying why, when the recording cannot be read.
     */
    private MonitorContention monitorWaits(List<String> notes) {
        try {
            if (stopped) {
                MonitorContention m = monitorsAtStop;
                if (m == null) {
                    m = MonitorContention.read(file, options.maxBlockers);
                    monitorsAtStop = m;
                }
                if (diskGuard != null && diskGuard.trimmed()) {
                    notes.add("the synchronized rows count the monitor waits in the recording's latest part only (it reached its cap)");
                }
                return m;
            }
            Path dir = file.getParent() != null ? file.getParent() : Path.of(".");
            Path snapshot = Files.createTempFile(dir, "lockscope-table-", ".jfr");
            try {
                recording.dump(snapshot);
                return MonitorContention.read(snapshot, options.maxBlockers);
            } finally {
                Files.deleteIfExists(snapshot);
            }
        } catch (IOException | RuntimeException e) {
            notes.add("no synchronized rows: the recording could not be read (" + e + ")");
            return null;
        }
    }

    /** Lock sites shown in one line each by {@link #shortTable}. */
    static final int SHORT_TABLE_SITES = 10;

    /** The top {@value #SHORT_TABLE_SITES} lock sites in one line each, and the recording's path. */
    String shortTable(String title, String findingsTitle) {
        return table(title, false, findingsTitle);
    }

    /**
     * @param full          every lock site with its details, or the first ones in one line each
     * @param findingsTitle the title of the findings above the table, or null for the table alone
     */
    private String table(String title, boolean full, String findingsTitle) {
        long execNanos = (stopped ? recordingEndNanos : System.nanoTime()) - startNanos;
        // Once stopped, the last summaries written are the ones the recording ends with (at exit JFR's
        // own shutdown hook may have stopped the recording before ours ran).
        LockSummaries.Snapshot parks = stopped ? parksAtStop : null;
        if (parks == null) {
            parks = LockSummaries.snapshot();
        }
        List<LockMetrics> locks = parkMetrics(parks, execNanos, 0); // the print threshold applies to the sites below
        List<String> notes = new ArrayList<>();
        MonitorContention monitors = monitorWaits(notes);
        if (monitors != null) {
            locks.addAll(monitors.metrics(execNanos));
        }
        if (options.freeOnPrint) {
            BlockerRegistry.removeDead();
        }
        notes.add(String.format(Locale.ROOT, "profiled %.2f s; recording %s", execNanos / 1e9, file));
        if (BlockerRegistry.untracked() > 0) {
            notes.add(BlockerRegistry.untracked() + " parks on blockers beyond maxBlockers=" + options.maxBlockers
                    + " are in the recording only (the bound is that many records, or maxBlockerMemory="
                    + OptionValues.formatBytes(options.maxBlockerMemory) + ")");
        }
        long[] refused = StackBudget.refused();
        if (refused[0] > 0 || refused[2] > 0) {
            notes.add(LockTable.stackBudgetNote(StackBudget.perSecond(), refused[0], refused[1], refused[2]));
        }
        if (HookFailures.count() > 0) {
            notes.add(HookFailures.count() + " internal errors in lockscope hooks were swallowed; first: " + HookFailures.first());
        }
        // one row per lock site (class and acquiring site), as `lockscope report` ranks them; §3.3.2's
        // print threshold applies to the rows shown
        List<LockMetrics> sites = new ArrayList<>();
        // a site's real-time is the union of its objects' waits, as in `lockscope report`
        for (LockMetrics site : LockSites.group(locks, execNanos, siteRealTimes(parks, monitors, execNanos))) {
            if (site.timesParked() >= options.printThreshold) {
                sites.add(site);
            }
        }
        sites = LockTable.withoutProfilersOwn(sites, notes);
        // named as `lockscope report` names its rows: unique among all of them, idle ones too
        java.util.Map<LockMetrics, String> labels = LockLabels.of(sites);
        sites = LockTable.withoutIdle(sites, notes);
        // the first line, as `lockscope report`'s, when nothing reaches a finding's share of wall time
        String first = LockTable.noSignificantContention(sites, labels);
        String findings = findingsTitle == null ? "" : LockFindings.text(findingsTitle, sites, labels, SHORT_TABLE_SITES,
                "who held each lock, and in what code: lockscope report " + file) + "\n";
        return (first.isEmpty() ? "" : first + "\n") + findings + (full ? LockTable.render(title, sites, options.printThreshold, notes, 0, 0, labels)
                : LockTable.renderShort(title, sites, options.printThreshold, notes, SHORT_TABLE_SITES,
                "lockscope report " + file + " has them all; report=full prints them at exit", labels));
    }
}
