package dev.lockscope.agent;

import dev.lockscope.core.Frames;
import dev.lockscope.core.IntervalReplay;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Contended-monitor metrics for the agent's own table, from the {@code jdk.JavaMonitorEnter} events
 * of its recording: the JVM reports monitor waits only through JFR, so the agent reads them back
 * at exit and on dump. Each monitor is keyed by class and the JVM's monitor address.
 */
final class MonitorContention {
    private MonitorContention() {
    }

    private static final class Monitor {
        final String className;
        final String address;
        final IntervalReplay waits = new IntervalReplay();
        long firstStart = Long.MAX_VALUE;
        String firstThread = "?";
        List<String> firstFrames = List.of();

        Monitor(String className, String address) {
            this.className = className;
            this.address = address;
        }
    }

    static List<LockMetrics> read(Path recording, long totalExecutionNanos) throws IOException {
        Map<String, Monitor> monitors = new HashMap<>();
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (!e.getEventType().getName().equals("jdk.JavaMonitorEnter")) {
                    continue;
                }
                RecordedClass cls = e.getValue("monitorClass");
                String className = cls == null ? "?" : cls.getName();
                String address = Long.toHexString(e.getLong("address"));
                Monitor m = monitors.computeIfAbsent(className + "@" + address, k -> new Monitor(className, address));
                long start = nanos(e.getStartTime());
                long end = nanos(e.getEndTime());
                m.waits.add(start, end);
                if (start < m.firstStart) {
                    m.firstStart = start;
                    RecordedThread t = e.getThread();
                    m.firstThread = t == null ? "?" : t.getJavaName();
                    m.firstFrames = frames(e.getStackTrace());
                }
            }
        }
        List<LockMetrics> out = new ArrayList<>();
        for (Monitor m : monitors.values()) {
            out.add(new LockMetrics(LockKind.MONITOR, m.className, m.address, m.firstThread, m.firstFrames,
                    m.waits.tally(0), totalExecutionNanos));
        }
        return out;
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
