package dev.lockscope.agent;

import dev.lockscope.core.EventNames;
import dev.lockscope.agent.boot.BlockerRecord;
import dev.lockscope.agent.boot.BlockerRegistry;
import dev.lockscope.agent.boot.HookFailures;
import dev.lockscope.agent.boot.LockSummaries;
import dev.lockscope.agent.boot.ParkHooks;
import dev.lockscope.agent.boot.VirtualThreadHooks;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockTable;
import dev.lockscope.core.OptionValues;
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
import java.util.List;
import java.util.Locale;
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
     * ThreadPark. The agent option {@code jdkPark} turns it back on.
     */
    static final String[] JDK_LOCK_EVENTS = {EventNames.MONITOR_ENTER, EventNames.MONITOR_WAIT, EventNames.THREAD_SLEEP};

    private static final String NAME = "lockscope";
    /** The longest JFR's shutdown hook may take writing our recording before the exit table goes without it. */
    private static final long EXIT_WRITE_LIMIT_MILLIS = 120_000;

    private final AgentOptions options;
    private final Recording recording = new Recording();
    private final Path file;
    private final long startNanos = System.nanoTime();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch written = new CountDownLatch(1);
    private volatile boolean stopped;
    private volatile String stopReason;
    /** When profiling stopped: the end of "total execution time" (the application's, not our exit work). */
    private volatile long stopNanos;
    private volatile DiskGuard diskGuard;
    /** The monitor part of the table, fed live by its own event stream. */
    private MonitorContention monitors;
    /** The park tallies the recording's last {@code lockscope.LockSummary} events were written from, once stopped. */
    private volatile LockSummaries.Snapshot parksAtStop;

    RecordingSession(AgentOptions options) throws IOException {
        this.options = options;
        Path wanted = (options.file != null ? options.file : Path.of("lockscope-" + ProcessHandle.current().pid() + ".jfr"))
                .toAbsolutePath();
        this.file = options.newFile ? claimNew(wanted) : wanted;
    }

    /**
     * {@code file} if it does not exist yet, created now; otherwise {@code file-PID.jfr}. Under one
     * {@code lockscope record} of a wrapper (mvn, gradle, a script) every JVM gets the same option
     * string: the first to create the file keeps it, and each further JVM, started alongside or later,
     * writes its own file instead of overwriting the other's.
     */
    static Path claimNew(Path file) throws IOException {
        Path parent = file.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            Files.createFile(file); // atomic: exactly one JVM succeeds
            return file;
        } catch (FileAlreadyExistsException taken) {
            String name = file.getFileName().toString();
            String stem = name.endsWith(".jfr") ? name.substring(0, name.length() - 4) : name;
            Path own = file.resolveSibling(stem + "-" + ProcessHandle.current().pid() + ".jfr");
            LockscopeAgent.log(file + " is another JVM's recording of this command; this JVM (pid "
                    + ProcessHandle.current().pid() + ") records into " + own);
            return own;
        }
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
        if (options.jdkPark) {
            recording.enable(EventNames.THREAD_PARK).withThreshold(options.threshold).withStackTrace();
        }
        // One event per park, at least the threshold long; the exact totals of all parks are in the
        // summaries written at every chunk end (see ParkEvent and LockSummaryEvent for the schema).
        ParkHooks.setThresholdNanos(options.threshold.toNanos());
        recording.enable(EventNames.PARK).withThreshold(options.threshold).withStackTrace();
        recording.enable(EventNames.UNPARK).withStackTrace();
        recording.enable(EventNames.LOCK_SUMMARY).with("period", "endChunk");
        if (options.acquireEvents) {
            // off by default: RecordingReader keeps these, but no analysis or report uses them
            recording.enable(EventNames.ACQUIRE).withThreshold(options.threshold);
        }
        // virtual threads: monitor waits while unmounted (JDK 24+, VirtualThreadTransformer) and
        // every pinning with its stack, not only JFR's default of 20 ms (JDK 21+; unknown names are ignored)
        recording.enable(EventNames.VIRTUAL_MONITOR_ENTER).withThreshold(options.threshold);
        recording.enable(EventNames.VIRTUAL_THREAD_PINNED).withThreshold(options.threshold).withStackTrace();
        // the virtual-thread scheduler's parallelism, for carrier starvation (once per chunk)
        recording.enable(EventNames.INITIAL_SYSTEM_PROPERTY);
        recording.enable(EventNames.CPU_INFORMATION);
        recording.enable(EventNames.CONTAINER_CONFIGURATION);
        recording.enable(EventNames.THREAD_START);
        recording.enable(EventNames.THREAD_END);
        recording.enable("jdk.JavaThreadStatistics").withPeriod(Duration.ofSeconds(1));
        if (options.cpuSamples != null) {
            recording.enable(EventNames.EXECUTION_SAMPLE).withPeriod(options.cpuSamples);
        }
        Path parent = file.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
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
        recording.start();
        FlightRecorder.addListener(sharedRecordingNotice);
        diskGuard = DiskGuard.start(this, file);
        monitors = new MonitorContention(options.threshold);
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
            stopNanos = System.nanoTime();
            stopped = true;
            ParkHooks.deactivate();
            VirtualThreadHooks.deactivate(); // commits the virtual-thread waits that have ended
            if (diskGuard != null && Thread.currentThread() != diskGuard.thread()) {
                diskGuard.stop();
            }
            if (monitors != null) {
                // the monitor waits that ended before the stop, for the table: flushed by the running
                // recording, or, when JFR's shutdown hook is stopping everything, the stream's last events
                if (recording.getState() == RecordingState.RUNNING) {
                    monitors.awaitFlush(Duration.ofSeconds(3));
                } else {
                    monitors.awaitEnd(Duration.ofSeconds(3));
                }
            }
            String problem = null;
            try {
                if (recording.getState() != RecordingState.RUNNING) {
                    throw new IOException("JFR stopped it"); // JFR's shutdown hook is writing it: wait for that below
                }
                recording.dump(file);
                if (Files.size(file) == 0) {
                    problem = "the recording written to " + file + " is empty" + DiskGuard.freeSpace(file);
                }
            } catch (IOException | RuntimeException e) {
                if (!waitUntilClosed()) {
                    problem = "the recording could not be written to " + file + ": " + e.getMessage() + DiskGuard.freeSpace(file);
                }
            }
            // the summaries written last are the ones the file ends with: the dump rotated the chunk, or
            // JFR's shutdown hook stopped the recording (ours is then closed and writes none later)
            parksAtStop = LockSummaries.lastWritten();
            try {
                recording.setDestination(null); // written: JFR's hook must not copy it again
            } catch (IOException | IllegalStateException stoppedByJfr) {
                // JFR's shutdown hook stopped it in the meantime and wrote the file
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
            if (monitors != null) {
                monitors.close();
            }
        }
        return true;
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
        long execNanos = (stopped ? stopNanos : System.nanoTime()) - startNanos;
        // Once stopped, the last summaries written are the ones the recording ends with (at exit JFR's
        // own shutdown hook may have stopped the recording before ours ran).
        LockSummaries.Snapshot parks = stopped ? parksAtStop : null;
        if (parks == null) {
            parks = LockSummaries.snapshot();
        }
        List<LockMetrics> locks = new ArrayList<>();
        for (LockSummaries.Entry e : parks.entries()) {
            ParkTally t = e.tally();
            BlockerRecord r = e.record();
            if (t.timesParked == 0 || t.timesParked < options.printThreshold || !t.collecting) {
                continue;
            }
            locks.add(new LockMetrics(LockKind.PARK, r.className, Integer.toHexString(r.identityHash),
                    r.firstThread(), Arrays.asList(r.firstFrames()), t, execNanos));
        }
        List<String> notes = new ArrayList<>();
        if (monitors != null) {
            if (!stopped) {
                monitors.awaitFlush(Duration.ofSeconds(3));
            }
            for (LockMetrics m : monitors.metrics(execNanos)) {
                if (m.timesParked() >= options.printThreshold) {
                    locks.add(m);
                }
            }
            if (monitors.leftOut() > 0) {
                notes.add(monitors.leftOut() + " contended monitor entries beyond the first " + MonitorContention.MAX_WAITS
                        + " are in the recording only (lockscope report counts them)");
            }
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
        if (HookFailures.count() > 0) {
            notes.add(HookFailures.count() + " internal errors in lockscope hooks were swallowed; first: " + HookFailures.first());
        }
        return LockTable.render(title, locks, options.printThreshold, notes);
    }
}
