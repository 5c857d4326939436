package dev.lockscope.agent;

import dev.lockscope.core.EventNames;
import dev.lockscope.core.FollowedLocks;
import dev.lockscope.core.Frame;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockSites;
import dev.lockscope.core.ReplayWindow;
import dev.lockscope.core.LockWaits;
import dev.lockscope.core.NotifiedWaits;
import dev.lockscope.core.ThreadNames;
import dev.lockscope.core.VirtualMonitorEnters;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordingStream;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Contended-monitor metrics for the agent's table: the JVM reports monitor waits only as
 * {@code jdk.JavaMonitorEnter} events (the table's {@code monitor} rows) and {@code jdk.JavaMonitorWait} events
 * (its {@code wait} rows: an {@code Object.wait} another thread's notify ended, {@link NotifiedWaits}), and a
 * virtual thread blocked while unmounted (JDK 24+) only as lockscope's own {@code lockscope.VirtualMonitorEnter};
 * all reach this class from one of two sources.
 * The exit table and {@code lockscope dump} read them from the recording ({@link #read}), once, when the table is asked
 * for; the live metrics (metrics endpoint, MBean) follow them through an in-process {@link RecordingStream}
 * ({@link #live}), which JFR feeds at each flush, about once a second. Only the live metrics run the
 * stream: it parses every event of every flush, lockscope's park events included, to find the monitor
 * entries, and JIT-compiles JFR's parser and its repository scan for a minute or more while the
 * application runs (measured in docs/agent-cost.md, "The monitor table read from the recording"). Either
 * source replays the waits through the same {@link LockWaits}, one per monitor, as {@code lockscope report}
 * does.
 *
 * <p>Memory is bounded for a JVM that runs for days: the begins and ends awaiting their replay in time order are
 * held in one {@link ReplayWindow}, and at most {@code maxMonitors} monitors are followed one by one (beyond them the
 * least recently waited for is summed at its site, {@link FollowedLocks}), both as in {@code lockscope report}. One call chain per monitor
 * (its earliest wait's).
 *
 * <p>The live stream also sums {@code jdk.VirtualThreadPinned} time and tallies the method that released
 * each {@code java.util.concurrent} blocker from its {@code lockscope.Unpark} events ({@link OwnerMethods}).
 */
final class MonitorContention implements AutoCloseable {
    /** The thread that starts the stream; JFR tells recording listeners of the stream's state on it. */
    static final String THREAD_NAME = "lockscope-monitor-stream";
    /** How long starting the agent waits for the stream's recording to run. */
    static final Duration START_WAIT = Duration.ofSeconds(5);

    /** The live stream's threshold (null when read from a recording). */
    private final Duration threshold;
    /** Created by the reader thread, which start() blocks; the agent's start waits only until its recording runs. */
    private volatile RecordingStream stream;
    private volatile boolean closed;
    /** The monitors followed one by one, at most {@code maxMonitors}; the rest summed at their sites. Guarded by this. */
    private final FollowedLocks monitors;
    /**
     * Each lock site's waits, all its monitors' together: its real-time is the union of their waits, the
     * site's %real as in {@code lockscope report} (a monitor the JVM deflated and inflated again is a new
     * address at the same site). Keyed by {@link LockSites#keyOf}. Guarded by this.
     */
    private final Map<String, LockWaits> sites = new HashMap<>();
    private final ReplayWindow window = new ReplayWindow(); // guarded by this
    private volatile long lastFlushNanos;
    /** Counted down when the stream's recording runs, or when it will not. */
    private final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
    private final OwnerMethods ownerMethods = new OwnerMethods();
    private final java.util.concurrent.atomic.AtomicLong pinnedNanos = new java.util.concurrent.atomic.AtomicLong();

    private MonitorContention(Duration threshold, int maxMonitors) {
        this.threshold = threshold;
        this.monitors = new FollowedLocks(maxMonitors, 0, window, (kind, className, identity, site) -> { });
    }

    /**
     * The monitor waits of a finished recording file, read now on the calling thread (JFR's parser skips
     * the events of other types by their size).
     */
    static MonitorContention read(Path recording, int maxMonitors) throws IOException {
        MonitorContention m = new MonitorContention(null, maxMonitors);
        try (EventStream s = EventStream.openFile(recording)) {
            s.setOrdered(false); // LockWaits takes waits in any order; an ordered stream sorts each chunk in memory
            s.setReuse(true);
            s.onEvent(EventNames.MONITOR_ENTER, m::accept);
            s.onEvent(EventNames.MONITOR_WAIT, m::acceptWait);
            s.onEvent(EventNames.VIRTUAL_MONITOR_ENTER, m::acceptVirtual);
            s.start();
        }
        return m;
    }

    /** The live monitor waits, pinning and owner methods, followed from now on by an in-process stream. */
    static MonitorContention live(Duration threshold, int maxMonitors) {
        MonitorContention m = new MonitorContention(threshold, maxMonitors);
        // start() in a daemon thread of ours: startAsync's thread is not a daemon (JDK 17) and would
        // keep the application's JVM from exiting.
        Thread reader = new Thread(m::run, THREAD_NAME);
        reader.setDaemon(true);
        reader.start();
        // Starting the stream's recording rotates JFR's chunk. Started from here without waiting, that came
        // 10-100 ms into the application, amid its first contended monitor entries; in three full test runs on
        // JDK 17 (one of them CI's) every start-up entry of the demo's 4 ms lock was recorded without a stack,
        // the rotation the one thing of JFR's that overlapped them. Waiting here, before the application's main runs, leaves no entry in
        // progress to split, and the wait is short (the recording's start, not the stream's first flush).
        try {
            m.started.await(START_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return m;
    }

    /** Whether the stream's recording runs, or failed to start: false only where the agent's start stopped waiting. */
    boolean started() {
        return started.getCount() == 0;
    }

    private void run() {
        Thread reader = Thread.currentThread();
        // JFR tells listeners of a state change on the thread that made it: this one, in s.start()
        FlightRecorderListener running = new FlightRecorderListener() {
            @Override
            public void recordingStateChanged(Recording r) {
                if (Thread.currentThread() == reader && r.getState() == RecordingState.RUNNING) {
                    started.countDown();
                }
            }
        };
        try {
            RecordingStream s = new RecordingStream();
            // Unordered and reused events: an ordered stream holds every event of a flush in memory to
            // sort it, which at a million Unpark events a second grew the application's heap by gigabytes;
            // LockWaits takes waits in any order and OwnerMethods only counts.
            s.setOrdered(false);
            s.setReuse(true);
            s.enable(EventNames.MONITOR_ENTER).withThreshold(threshold).withStackTrace();
            s.onEvent(EventNames.MONITOR_ENTER, this::accept);
            s.enable(EventNames.MONITOR_WAIT).withThreshold(threshold).withStackTrace();
            s.onEvent(EventNames.MONITOR_WAIT, this::acceptWait);
            s.enable(EventNames.VIRTUAL_MONITOR_ENTER).withThreshold(threshold);
            s.onEvent(EventNames.VIRTUAL_MONITOR_ENTER, this::acceptVirtual);
            // the same settings as the agent's recording, so JFR records nothing more for them
            s.enable(EventNames.UNPARK).withStackTrace();
            s.onEvent(EventNames.UNPARK, ownerMethods::accept);
            s.enable(EventNames.VIRTUAL_THREAD_PINNED).withThreshold(threshold).withStackTrace();
            s.onEvent(EventNames.VIRTUAL_THREAD_PINNED, e -> pinnedNanos.addAndGet(e.getDuration().toNanos()));
            s.onFlush(() -> lastFlushNanos = System.nanoTime());
            stream = s;
            FlightRecorder.addListener(running);
            if (!closed) {
                s.start();
            }
        } catch (RuntimeException e) {
            // closed, or JFR shut down: the table says what it has
        } finally {
            started.countDown();
            FlightRecorder.removeListener(running);
        }
    }

    /** A {@code jdk.JavaMonitorEnter}: the JVM's record of a platform (or pinned virtual) thread's wait. */
    private synchronized void accept(RecordedEvent e) {
        add(LockKind.MONITOR, e);
    }

    /**
     * A {@code jdk.JavaMonitorWait}: counted as a wait for a lock built on wait/notify when {@link NotifiedWaits}
     * says so, as {@code lockscope report} counts it (its {@code wait} rows).
     */
    private synchronized void acceptWait(RecordedEvent e) {
        RecordedThread waiter = e.getThread();
        RecordedThread notifier = e.getValue("notifier");
        boolean timedOut = e.getBoolean("timedOut");
        long waiterTid = waiter == null ? 0 : waiter.getJavaThreadId();
        long notifierTid = notifier == null ? 0 : notifier.getJavaThreadId();
        // the cheap test first: only a notified wait needs its innermost frames formatted
        if (NotifiedWaits.wokenByAnotherThread(timedOut, notifierTid, waiterTid)
                && NotifiedWaits.isLockWait(timedOut, notifierTid, waiterTid, frames(e.getStackTrace(), NotifiedWaits.DEPTH))) {
            add(LockKind.WAIT, e);
        }
    }

    /** One JDK monitor event's wait on its monitor's tally of {@code kind}, once it is among the earliest-ending. */
    private void add(LockKind kind, RecordedEvent e) {
        RecordedClass cls = e.getValue("monitorClass");
        hold(new Pending(kind, cls == null ? "?" : cls.getName(), e.getLong("address"),
                nanos(e.getStartTime()), nanos(e.getEndTime()), e.getThread(), e.getStackTrace(), null, null));
    }

    /**
     * A wait read but not yet counted. JFR writes events as threads' buffers are flushed, not in the order they
     * ended; {@code lockscope report} reads them in end order ({@code RecordingReader}, a window of 16,384 events),
     * and an object's row union is that of the site of its first wait to arrive: read in the file's order, an object
     * waited for at two sites could join another site's union here than in the report. The stack and thread are
     * JFR's constant-pool objects, shared by the events that have them, formatted only for a monitor's earliest wait.
     */
    private record Pending(LockKind kind, String className, long address, long begin, long end, RecordedThread thread,
                           RecordedStackTrace stack, String virtualThread, List<String> virtualFrames) {
    }

    /** Waits read, the earliest-ending first; at most {@link #END_ORDER_WINDOW}. Guarded by this. */
    private final java.util.PriorityQueue<Pending> pending = new java.util.PriorityQueue<>(
            java.util.Comparator.comparingLong(Pending::end));
    static final int END_ORDER_WINDOW = 1 << 14;

    private void hold(Pending p) {
        pending.add(p);
        if (pending.size() > END_ORDER_WINDOW) {
            count(pending.poll());
        }
    }

    /** Counts every wait read so far: before the table or the metrics are read. */
    private void drain() {
        while (!pending.isEmpty()) {
            count(pending.poll());
        }
    }

    private void count(Pending p) {
        FollowedLocks.Followed m = monitors.follow(p.kind(), p.className(), p.address());
        if (p.virtualFrames() != null) {
            add(m, p.begin(), p.end(), p.virtualThread(), p.virtualFrames());
            return;
        }
        String thread = "?";
        List<String> frames = List.of();
        if (p.begin() < m.firstBegin) {
            // §3.7.1/§3.7.2: events arrive in about end order, so the earliest begin may come late;
            // only a new earliest wait needs its thread and chain
            thread = p.thread() == null ? "?" : p.thread().getJavaName();
            frames = frames(p.stack());
        }
        add(m, p.begin(), p.end(), thread, frames);
    }

    /**
     * A {@code lockscope.VirtualMonitorEnter}: a virtual thread blocked while unmounted (JDK 24+), for
     * which the JVM records no {@code jdk.JavaMonitorEnter}; the monitor named as {@code lockscope report}
     * names it.
     */
    private synchronized void acceptVirtual(RecordedEvent e) {
        List<String> frames = VirtualMonitorEnters.frames(e.getString("frames"));
        String recordedClass = e.getString("monitorClass");
        hold(new Pending(LockKind.MONITOR, VirtualMonitorEnters.monitorClass(recordedClass, frames),
                VirtualMonitorEnters.identity(recordedClass, e.getInt("monitorHash"), frames),
                nanos(e.getStartTime()), nanos(e.getEndTime()), null, null,
                ThreadNames.virtual(e.getLong("virtualThreadId"), e.getString("virtualThreadName")), frames));
    }

    /** One wait on {@code m}; {@code thread} and {@code frames} count only if it is the monitor's earliest so far. */
    private void add(FollowedLocks.Followed m, long begin, long end, String thread, List<String> frames) {
        if (begin < m.firstBegin) {
            m.firstBegin = begin;
        }
        m.waits.add(begin, end, thread, frames);
        window.added(m.waits, 2, end);
        if (m.site == null && !frames.isEmpty()) {
            m.site = sites.computeIfAbsent(LockSites.keyOf(m.kind, m.className, LockSites.siteOf(frames)),
                    k -> new LockWaits(m.kind, m.className, k, 0));
        }
        if (m.site != null) {
            m.site.add(begin, end, thread, frames);
            window.added(m.site, 2, end);
        }
    }

    /**
     * Waits until JFR has flushed what happened before now, at most {@code timeout}: a table asked
     * for at some moment shows the monitor waits that ended before it.
     */
    void awaitFlush(Duration timeout) {
        long asked = System.nanoTime();
        long deadline = asked + timeout.toNanos();
        while (stream != null && lastFlushNanos < asked && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** After the JVM's JFR shutdown hook stopped every recording: lets the stream deliver its last events. */
    void awaitEnd(Duration timeout) {
        RecordingStream s = stream;
        if (s == null) {
            return;
        }
        try {
            s.awaitTermination(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The metrics of every monitor seen so far, replayed in begin order. */
    synchronized List<LockMetrics> metrics(long totalExecutionNanos) {
        drain();
        List<LockMetrics> out = new ArrayList<>();
        monitors.metrics(totalExecutionNanos, out, new IdentityHashMap<>());
        return out;
    }

    /**
     * The real-time of every monitor site so far, the union of its monitors' waits, by {@link LockSites#keyOf}: from
     * the monitors' held waits grouped by their rows ({@link LockSites#unionRealTimes}) where nothing was released
     * yet, otherwise the union kept while reading (a site with retired monitors keeps that one: its members' own
     * waits are not all here).
     */
    synchronized Map<String, Long> siteRealTimes(long totalExecutionNanos) {
        drain();
        Map<String, Long> out = new HashMap<>();
        sites.forEach((key, waits) -> {
            LockMetrics metrics = waits.metricsNow(totalExecutionNanos);
            if (metrics != null) {
                out.put(key, metrics.realTimeNanos());
            }
        });
        List<LockMetrics> all = new ArrayList<>();
        Map<LockMetrics, LockWaits> waitsOf = new IdentityHashMap<>();
        monitors.metrics(totalExecutionNanos, all, waitsOf);
        out.putAll(LockSites.unionRealTimes(all, totalExecutionNanos, waitsOf));
        return out;
    }

    /** Who released each java.util.concurrent blocker, from its Unpark events (live only). */
    OwnerMethods ownerMethods() {
        return ownerMethods;
    }

    /** Time virtual threads spent pinned to their carrier, summed over jdk.VirtualThreadPinned (live only). */
    long pinnedNanos() {
        return pinnedNanos.get();
    }

    @Override
    public void close() {
        closed = true;
        RecordingStream s = stream;
        if (s != null) {
            s.close();
        }
    }

    static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    static List<String> frames(RecordedStackTrace st) {
        return frames(st, Integer.MAX_VALUE);
    }

    /** The innermost {@code limit} frames of {@code st} (all of them for {@link Integer#MAX_VALUE}). */
    static List<String> frames(RecordedStackTrace st, int limit) {
        if (st == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (RecordedFrame f : st.getFrames()) {
            if (out.size() == limit) {
                break;
            }
            if (f.getMethod() == null) {
                continue;
            }
            out.add(Frame.format(f.getMethod().getType().getName(), f.getMethod().getName(), f.getLineNumber()));
        }
        return out;
    }
}
