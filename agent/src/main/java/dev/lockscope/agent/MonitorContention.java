package dev.lockscope.agent;

import dev.lockscope.core.Frames;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockWaits;
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
import java.util.Comparator;
import java.util.LinkedHashMap;
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

    /** One contended entry, kept until all are read: JFR files are not in begin order. */
    private record Entry(String className, String address, long begin, long end, String thread, RecordedStackTrace stack) {
    }

    static List<LockMetrics> read(Path recording, long totalExecutionNanos) throws IOException {
        List<Entry> entries = new ArrayList<>();
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (!e.getEventType().getName().equals("jdk.JavaMonitorEnter")) {
                    continue;
                }
                RecordedClass cls = e.getValue("monitorClass");
                RecordedThread t = e.getThread();
                entries.add(new Entry(cls == null ? "?" : cls.getName(), Long.toHexString(e.getLong("address")),
                        nanos(e.getStartTime()), nanos(e.getEndTime()), t == null ? "?" : t.getJavaName(), e.getStackTrace()));
            }
        }
        entries.sort(Comparator.comparingLong(Entry::begin));
        Map<String, LockWaits> monitors = new LinkedHashMap<>();
        for (Entry e : entries) {
            monitors.computeIfAbsent(e.className() + "@" + e.address(),
                            k -> new LockWaits(LockKind.MONITOR, e.className(), e.address(), 0))
                    .add(e.begin(), e.end(), e.thread(), frames(e.stack()));
        }
        List<LockMetrics> out = new ArrayList<>();
        for (LockWaits w : monitors.values()) {
            out.add(w.metrics(totalExecutionNanos));
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
