package dev.lockscope.analysis.bottle;

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
import java.util.List;

/**
 * Off-CPU intervals of threads from a JFR recording's standard events (jdk.JavaMonitorEnter, Wait,
 * ThreadPark, ThreadSleep, ThreadStart, ThreadEnd), placed on the scheduling time line with the trace's clock
 * offset. Only events above the recording's thresholds exist; shorter waits stay unexplained.
 *
 * <p>The lockscope agent does not enable {@code jdk.ThreadPark} by default (it would walk every
 * parking thread's stack a second time); in a recording without any {@code jdk.ThreadPark} the parks
 * come from lockscope's own {@code lockscope.Park} (its duration is the park, with the blocker class
 * and the waiter's stack). Those cover parks on a blocker at least the recording threshold long.
 */
public final class JfrWaits {
    private JfrWaits() {
    }

    public static List<WaitInterval> read(Path recording, long epochOffsetNanos) throws IOException {
        List<WaitInterval> out = new ArrayList<>();
        boolean jdkParks = false;
        List<RecordedEvent> parks = new ArrayList<>();
        try (RecordingFile f = new RecordingFile(recording)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                String type = e.getEventType().getName();
                if (type.equals("lockscope.Park")) {
                    RecordedThread t = e.getThread();
                    if (t != null && t.getOSThreadId() > 0) {
                        parks.add(e);
                    }
                    continue;
                }
                jdkParks |= type.equals("jdk.ThreadPark");
                String state = switch (type) {
                    case "jdk.JavaMonitorEnter" -> "blocked on monitor";
                    case "jdk.JavaMonitorWait" -> "waiting (Object.wait)";
                    case "jdk.ThreadPark" -> "parked";
                    case "jdk.ThreadSleep" -> "sleeping";
                    case "jdk.ThreadEnd" -> "finished";
                    case "jdk.ThreadStart" -> "not started yet";
                    default -> null;
                };
                RecordedThread t = e.getThread();
                if (state == null || t == null || t.getOSThreadId() <= 0) {
                    continue;
                }
                long start = mono(e.getStartTime(), epochOffsetNanos);
                long end = mono(e.getEndTime(), epochOffsetNanos);
                if (state.equals("finished")) {
                    end = Long.MAX_VALUE;
                } else if (state.equals("not started yet")) {
                    end = start;
                    start = Long.MIN_VALUE;
                }
                out.add(new WaitInterval((int) t.getOSThreadId(), start, end, state, detail(e, type)));
            }
        }
        if (!jdkParks) {
            for (RecordedEvent pe : parks) {
                RecordedThread t = pe.getThread();
                String cls = pe.getString("blockerClass");
                String where = where(pe.getStackTrace());
                out.add(new WaitInterval((int) t.getOSThreadId(), mono(pe.getStartTime(), epochOffsetNanos),
                        mono(pe.getEndTime(), epochOffsetNanos), "parked",
                        (cls == null ? "" : cls) + (where == null ? "" : (cls == null ? "" : " ") + "at " + where)));
            }
        }
        return out;
    }

    static long mono(Instant i, long epochOffsetNanos) {
        return i.getEpochSecond() * 1_000_000_000L + i.getNano() - epochOffsetNanos;
    }

    /** "java.lang.Object at app.Foo.bar:42": the lock's class and the frame that waited. */
    static String detail(RecordedEvent e, String type) {
        String cls = null;
        for (String field : new String[] {"monitorClass", "parkedClass"}) {
            if (e.hasField(field) && e.getValue(field) instanceof RecordedClass c) {
                cls = c.getName();
            }
        }
        String where = where(e.getStackTrace());
        if (type.equals("jdk.ThreadEnd") || type.equals("jdk.ThreadStart")) {
            return "";
        }
        return (cls == null ? "" : cls) + (where == null ? "" : (cls == null ? "" : " ") + "at " + where);
    }

    /** "app.Foo.bar:42": the first frame below the JDK's (and lockscope's hooks') wait/park machinery. */
    private static String where(RecordedStackTrace st) {
        if (st != null) {
            for (RecordedFrame fr : st.getFrames()) {
                String owner = fr.getMethod().getType().getName();
                if (!owner.startsWith("java.") && !owner.startsWith("jdk.") && !owner.startsWith("sun.")
                        && !owner.startsWith("dev.lockscope.agent.boot.")) {
                    return owner + "." + fr.getMethod().getName() + (fr.getLineNumber() > 0 ? ":" + fr.getLineNumber() : "");
                }
            }
        }
        return null;
    }
}
