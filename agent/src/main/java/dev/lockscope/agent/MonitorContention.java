package dev.lockscope.agent;

import dev.lockscope.core.EventNames;
import dev.lockscope.core.Frames;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockWaits;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Contended-monitor metrics for the agent's own table, kept live: the JVM reports monitor waits only
 * as {@code jdk.JavaMonitorEnter} events, which an in-process {@link RecordingStream} hands to
 * {@link #accept} as JFR flushes them (about once a second), so neither the exit table nor
 * {@code dump} reads a recording file. The waits go through the same {@link LockWaits} replay as
 * recorded waits. Memory is bounded: {@link #MAX_WAITS} waits in all (16 bytes each), and one call
 * chain per monitor (its earliest wait's); later waits are left out of this table and counted in a
 * note ({@code lockscope report} reads them all from the recording).
 */
final class MonitorContention implements AutoCloseable {
    static final int MAX_WAITS = 1 << 18;

    /** One monitor's waits as seen so far. */
    private static final class Monitor {
        final String className;
        final String address;
        long[] begins = new long[8];
        long[] ends = new long[8];
        int size;
        long firstBegin = Long.MAX_VALUE;
        String firstThread = "?";
        List<String> firstFrames = List.of();

        Monitor(String className, String address) {
            this.className = className;
            this.address = address;
        }
    }

    /** The thread that starts the stream; JFR tells recording listeners of the stream's state on it. */
    static final String THREAD_NAME = "lockscope-monitor-stream";

    private final Duration threshold;
    /** Created by the reader thread, so starting the agent does not wait for JFR's stream set-up. */
    private volatile RecordingStream stream;
    private volatile boolean closed;
    private final Map<String, Monitor> monitors = new HashMap<>(); // guarded by this
    private long waits; // guarded by this
    private long leftOut; // guarded by this
    private volatile long lastFlushNanos;

    MonitorContention(Duration threshold) {
        this.threshold = threshold;
        // start() in a daemon thread of ours: startAsync's thread is not a daemon (JDK 17) and would
        // keep the application's JVM from exiting.
        Thread reader = new Thread(this::run, THREAD_NAME);
        reader.setDaemon(true);
        reader.start();
    }

    private void run() {
        try {
            RecordingStream s = new RecordingStream();
            s.enable(EventNames.MONITOR_ENTER).withThreshold(threshold).withStackTrace();
            s.onEvent(EventNames.MONITOR_ENTER, this::accept);
            s.onFlush(() -> lastFlushNanos = System.nanoTime());
            stream = s;
            if (!closed) {
                s.start();
            }
        } catch (RuntimeException e) {
            // closed, or JFR shut down: the table says what it has
        }
    }

    private synchronized void accept(RecordedEvent e) {
        RecordedClass cls = e.getValue("monitorClass");
        String className = cls == null ? "?" : cls.getName();
        String address = Long.toHexString(e.getLong("address"));
        Monitor m = monitors.computeIfAbsent(className + "@" + address, k -> new Monitor(className, address));
        if (waits >= MAX_WAITS) {
            leftOut++;
            return;
        }
        waits++;
        long begin = nanos(e.getStartTime());
        if (m.size == m.begins.length) {
            m.begins = java.util.Arrays.copyOf(m.begins, m.size * 2);
            m.ends = java.util.Arrays.copyOf(m.ends, m.size * 2);
        }
        m.begins[m.size] = begin;
        m.ends[m.size] = nanos(e.getEndTime());
        m.size++;
        if (begin < m.firstBegin) {
            // §3.7.1/§3.7.2: events arrive in about end order, so the earliest begin may come late
            m.firstBegin = begin;
            RecordedThread t = e.getThread();
            m.firstThread = t == null ? "?" : t.getJavaName();
            m.firstFrames = frames(e.getStackTrace());
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
        List<LockMetrics> out = new ArrayList<>();
        for (Monitor m : monitors.values()) {
            if (m.size == 0) {
                continue;
            }
            Integer[] order = new Integer[m.size];
            for (int i = 0; i < m.size; i++) {
                order[i] = i;
            }
            long[] begins = m.begins;
            java.util.Arrays.sort(order, Comparator.comparingLong(i -> begins[i]));
            LockWaits w = new LockWaits(LockKind.MONITOR, m.className, m.address, 0);
            for (Integer i : order) {
                w.add(m.begins[i], m.ends[i], m.firstThread, m.firstFrames);
            }
            out.add(w.metrics(totalExecutionNanos));
        }
        return out;
    }

    synchronized long leftOut() {
        return leftOut;
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
        if (st == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (RecordedFrame f : st.getFrames()) {
            if (f.getMethod() == null) {
                continue;
            }
            out.add(Frames.format(f.getMethod().getType().getName(), f.getMethod().getName(), f.getLineNumber()));
        }
        return out;
    }
}
