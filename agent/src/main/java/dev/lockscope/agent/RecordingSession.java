package dev.lockscope.agent;

import dev.lockscope.agent.boot.BlockerRecord;
import dev.lockscope.agent.boot.BlockerRegistry;
import dev.lockscope.agent.boot.HookFailures;
import dev.lockscope.agent.boot.LockSummaries;
import dev.lockscope.agent.boot.ParkHooks;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockTable;
import dev.lockscope.core.ParkTally;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The one JFR recording the agent runs, and the contention table built from it and the live records. */
final class RecordingSession {
    /**
     * JFR's own lock events. Not {@code jdk.ThreadPark}: lockscope's ParkBegin/ParkEnd record the same
     * parks (those on a blocker) with the blocker's identity, and ThreadPark would walk every parking
     * thread's stack a second time (JfrStackTrace::record_safe was the top native frame of the agent's
     * cost on an ArrayBlockingQueue pipeline). Nothing in lockscope needs it: the report and blame
     * read lockscope's events, and {@code lockscope bottle} falls back to them when a recording has no
     * ThreadPark. The agent option {@code jdkPark} turns it back on.
     */
    static final String[] JDK_LOCK_EVENTS = {"jdk.JavaMonitorEnter", "jdk.JavaMonitorWait", "jdk.ThreadSleep"};

    private final AgentOptions options;
    private final Recording recording = new Recording();
    private final Path file;
    private final long startNanos = System.nanoTime();
    private volatile boolean stopped;
    /** When profiling stopped: the end of "total execution time" (the application's, not our exit work). */
    private volatile long stopNanos;
    /** The monitor part of the table, fed live by its own event stream. */
    private MonitorContention monitors;

    RecordingSession(AgentOptions options) {
        this.options = options;
        this.file = (options.file != null ? options.file : Path.of("lockscope-" + ProcessHandle.current().pid() + ".jfr"))
                .toAbsolutePath();
    }

    Path file() {
        return file;
    }

    void start() throws IOException {
        recording.setName("lockscope");
        for (String name : JDK_LOCK_EVENTS) {
            recording.enable(name).withThreshold(options.threshold).withStackTrace();
        }
        if (options.jdkPark) {
            recording.enable("jdk.ThreadPark").withThreshold(options.threshold).withStackTrace();
        }
        // One event per park, at least the threshold long; the exact totals of all parks are in the
        // summaries written at every chunk end (see ParkEvent and LockSummaryEvent for the schema).
        ParkHooks.setThresholdNanos(options.threshold.toNanos());
        recording.enable("lockscope.Park").withThreshold(options.threshold).withStackTrace();
        recording.enable("lockscope.Unpark").withStackTrace();
        recording.enable("lockscope.LockSummary").with("period", "endChunk");
        if (options.acquireEvents) {
            // off by default: RecordingReader keeps these, but no analysis or report uses them
            recording.enable("lockscope.Acquire").withThreshold(options.threshold);
        }
        recording.enable("jdk.ThreadStart");
        recording.enable("jdk.ThreadEnd");
        recording.enable("jdk.JavaThreadStatistics").withPeriod(Duration.ofSeconds(1));
        if (options.cpuSamples != null) {
            recording.enable("jdk.ExecutionSample").withPeriod(options.cpuSamples);
        }
        Path parent = file.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        recording.setToDisk(true);
        recording.setDestination(file);
        recording.start();
        monitors = new MonitorContention(options.threshold);
    }

    /** Stops the recording (writing the file) once; returns false when it was already stopped. */
    synchronized boolean stop() {
        if (stopped) {
            return false;
        }
        stopped = true;
        stopNanos = System.nanoTime();
        ParkHooks.deactivate();
        if (monitors != null) {
            monitors.awaitFlush(Duration.ofSeconds(3));
        }
        try {
            recording.stop();
        } catch (IllegalStateException alreadyStopped) {
            // stopped by someone else in the meantime; its destination was written then
        }
        if (monitors != null) {
            monitors.close();
        }
        return true;
    }

    /**
     * The same at JVM exit. JFR's own shutdown hook, which runs concurrently with ours, stops every
     * running recording and writes its destination, then deletes the on-disk repository. Stopping
     * the recording here as well would race with that: the copy to the destination could read chunks
     * while they are deleted and leave an empty or truncated file. So at exit we let JFR's hook do
     * the writing and wait for it to finish; only if it cannot be found do we stop the recording.
     */
    synchronized boolean stopAtExit() {
        if (stopped) {
            return false;
        }
        stopped = true;
        stopNanos = System.nanoTime();
        ParkHooks.deactivate();
        Thread jfrHook = findThread("JFR Shutdown Hook", 1_000);
        if (jfrHook != null) {
            try {
                jfrHook.join(120_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (jfrHook == null || recording.getState() == RecordingState.RUNNING) {
            try {
                recording.stop();
            } catch (IllegalStateException alreadyStopped) {
                // JFR's hook stopped it after all
            }
        }
        if (monitors != null) {
            monitors.awaitEnd(Duration.ofSeconds(3));
        }
        return true;
    }

    /** A live thread with that name, looked for during at most {@code millis} (hooks start one by one). */
    private static Thread findThread(String name, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        do {
            Thread[] threads = new Thread[root.activeCount() + 16];
            int n = root.enumerate(threads, true);
            for (int i = 0; i < n; i++) {
                if (name.equals(threads[i].getName())) {
                    return threads[i];
                }
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        } while (System.nanoTime() < deadline);
        return null;
    }

    boolean isStopped() {
        return stopped;
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
        LockSummaries.Snapshot parks = stopped ? LockSummaries.lastWritten() : null;
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
                    + " are in the recording only");
        }
        if (HookFailures.count() > 0) {
            notes.add(HookFailures.count() + " internal errors in lockscope hooks were swallowed; first: " + HookFailures.first());
        }
        return LockTable.render(title, locks, options.printThreshold, notes);
    }
}
