package dev.lockscope.analysis.jfr;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our parser against the JDK's {@link RecordingFile} on a real recording with JFR's "profile"
 * settings (hundreds of event types, every field type): the same events in the same order, with the
 * same times, primitive and string fields, threads, classes and stacks. Run on each JDK the suite
 * runs on (17 and 25), so both JDKs' formats are checked.
 */
class JfrChunkOracleIT {
    @TempDir
    static Path dir;
    static Path recording;
    /** Fields that refer to constants other than threads, classes and stacks; the JDK flattens some to strings. */
    static final java.util.Set<String> CONSTANT_FIELDS = new java.util.HashSet<>();

    @BeforeAll
    static void record() throws Exception {
        recording = dir.resolve("profile.jfr");
        try (Recording r = new Recording(Configuration.getConfiguration("profile"))) {
            r.enable("jdk.JavaMonitorEnter").withThreshold(java.time.Duration.ZERO).withStackTrace();
            r.enable("jdk.ThreadPark").withThreshold(java.time.Duration.ZERO).withStackTrace();
            r.start();
            contend();
            r.stop();
            r.dump(recording);
        }
    }

    private static void contend() throws Exception {
        Object monitor = new Object();
        ReentrantLock lock = new ReentrantLock();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                long until = System.nanoTime() + 300_000_000L;
                while (System.nanoTime() < until) {
                    synchronized (monitor) {
                        LockSupport.parkNanos(100_000);
                    }
                    lock.lock();
                    try {
                        Math.sqrt(System.nanoTime());
                    } finally {
                        lock.unlock();
                    }
                }
            }, "oracle-wörker-" + i);
            threads.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
    }

    /** One event as plain values: "field=value" strings, in field order. */
    private static List<String> jdkEvents() throws Exception {
        List<String> out = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            StringBuilder sb = new StringBuilder(e.getEventType().getName());
            sb.append(" start=").append(nanos(e.getStartTime())).append(" end=").append(nanos(e.getEndTime()));
            for (ValueDescriptor d : e.getFields()) {
                if (d.getName().equals("startTime") || d.getName().equals("duration") || d.isArray()) {
                    continue;
                }
                Object v = e.getValue(d.getName());
                String text;
                if (v instanceof RecordedThread t) {
                    // JDK 17 says 0 for a non-Java thread, JDK 25 -1; the recording holds 0
                    text = "thread(" + Math.max(0, t.getJavaThreadId()) + "," + t.getJavaName() + "," + t.getOSName() + ","
                            + t.getOSThreadId() + ")";
                } else if (v instanceof RecordedClass c) {
                    text = "class(" + c.getName() + ")";
                } else if (v instanceof RecordedStackTrace st) {
                    StringBuilder f = new StringBuilder("stack(");
                    for (RecordedFrame fr : st.getFrames()) {
                        f.append(fr.getMethod().getType().getName()).append('.').append(fr.getMethod().getName()).append(':')
                                .append(fr.getLineNumber()).append(';');
                    }
                    text = f + ")";
                } else if (v == null && d.getTypeName().equals("java.lang.Thread")) {
                    text = "thread(null)";
                } else if (v == null && d.getTypeName().equals("java.lang.Class")) {
                    text = "class(null)";
                } else if (CONSTANT_FIELDS.contains(e.getEventType().getName() + "." + d.getName())) {
                    continue; // a constant of a simple type (jdk.types.ThreadState, ...), flattened by the JDK
                } else if (v == null || v instanceof String || v instanceof Number || v instanceof Boolean
                        || v instanceof Character) {
                    text = primitive(v);
                } else {
                    continue; // other constants and structs
                }
                sb.append(' ').append(d.getName()).append('=').append(text);
            }
            out.add(sb.toString());
        }
        return out;
    }

    private static String primitive(Object v) {
        if (v instanceof Float f) {
            return Integer.toHexString(Float.floatToRawIntBits(f));
        }
        if (v instanceof Double d) {
            return Long.toHexString(Double.doubleToRawLongBits(d));
        }
        if (v instanceof Boolean b) {
            return b ? "1" : "0";
        }
        if (v instanceof Character c) {
            return Long.toString(c);
        }
        return String.valueOf(v);
    }

    private static List<String> ourEvents() throws Exception {
        List<String> out = new ArrayList<>();
        JfrFile.Summary summary = JfrFile.read(recording, chunk -> chunk.events((type, values, strings) -> {
            long start = chunk.nanos(values[type.startTimeField]);
            long end = type.durationField < 0 ? start : chunk.nanos(values[type.startTimeField] + values[type.durationField]);
            StringBuilder sb = new StringBuilder(type.name).append(" start=").append(start).append(" end=").append(end);
            for (int i = 0; i < type.fields().size(); i++) {
                JfrField f = type.fields().get(i);
                if (f.name().equals("startTime") || f.name().equals("duration") || f.array()) {
                    continue;
                }
                JfrType ft = chunk.type(f.typeId());
                String text;
                if (ft.name.equals("java.lang.Thread")) {
                    text = thread(chunk, ft, values[i]);
                } else if (ft.name.equals("java.lang.Class")) {
                    text = "class(" + className(chunk, ft, values[i]) + ")";
                } else if (ft.name.equals("jdk.types.StackTrace")) {
                    text = stack(chunk, ft, values[i]);
                } else if (ft.name.equals("java.lang.String")) {
                    text = String.valueOf(strings[i]);
                } else if (!f.constantPool() && ft.fields().isEmpty()) {
                    text = primitive(ft.name, values[i]);
                } else {
                    CONSTANT_FIELDS.add(type.name + "." + f.name());
                    continue;
                }
                sb.append(' ').append(f.name()).append('=').append(text);
            }
            out.add(sb.toString());
        }));
        assertThat(summary.complete()).isTrue();
        return out;
    }

    private static String primitive(String type, long v) {
        return switch (type) {
            case "float" -> Integer.toHexString((int) v);
            case "double" -> Long.toHexString(v);
            default -> Long.toString(v);
        };
    }

    private static Object field(JfrChunk chunk, JfrType t, Object[] values, String name) {
        int i = t.field(name);
        return i < 0 ? null : values[i];
    }

    private static String symbol(JfrChunk chunk, JfrType t, Object[] values, String name) {
        Object key = field(chunk, t, values, name);
        JfrType st = chunk.type(t.fields().get(t.field(name)).typeId());
        Object[] sym = (Object[]) chunk.constant(st.id, (Long) key);
        return sym == null ? null : (String) sym[st.field("string")];
    }

    private static String thread(JfrChunk chunk, JfrType t, long key) {
        Object c = chunk.constant(t.id, key);
        if (!(c instanceof Object[] v)) {
            return "thread(null)";
        }
        long tid = (Long) field(chunk, t, v, "javaThreadId");
        return "thread(" + tid + "," + field(chunk, t, v, "javaName") + "," + field(chunk, t, v, "osName")
                + "," + field(chunk, t, v, "osThreadId") + ")";
    }

    private static String className(JfrChunk chunk, JfrType t, long key) {
        Object c = chunk.constant(t.id, key);
        return c instanceof Object[] v ? symbol(chunk, t, v, "name").replace('/', '.') : "null";
    }

    private static String stack(JfrChunk chunk, JfrType t, long key) {
        Object c = chunk.constant(t.id, key);
        if (!(c instanceof Object[] v)) {
            return "null";
        }
        JfrType frameType = chunk.type("jdk.types.StackFrame");
        JfrType methodType = chunk.type("jdk.types.Method");
        JfrType classType = chunk.type("java.lang.Class");
        StringBuilder f = new StringBuilder("stack(");
        for (Object fo : (Object[]) field(chunk, t, v, "frames")) {
            Object[] frame = (Object[]) fo;
            Object[] method = (Object[]) chunk.constant(methodType.id, (Long) field(chunk, frameType, frame, "method"));
            f.append(className(chunk, classType, (Long) field(chunk, methodType, method, "type"))).append('.')
                    .append(symbol(chunk, methodType, method, "name")).append(':')
                    .append(field(chunk, frameType, frame, "lineNumber")).append(';');
        }
        return f + ")";
    }

    private static long nanos(java.time.Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Test
    void sameEventsAndValuesAsTheJdkReader() throws Exception {
        List<String> ours = ourEvents();
        List<String> jdk = jdkEvents();
        assertThat(jdk).hasSizeGreaterThan(1000);
        assertThat(jdk).anyMatch(s -> s.startsWith("jdk.JavaMonitorEnter") && s.contains("oracle-wörker"));
        assertThat(ours).hasSameSizeAs(jdk);
        for (int i = 0; i < jdk.size(); i++) {
            assertThat(ours.get(i)).as("event %d", i).isEqualTo(jdk.get(i));
        }
    }

    @Test
    void everyTypeOfTheRecordingIsInTheMetadata() throws Exception {
        List<String> names = new ArrayList<>();
        JfrFile.read(recording, chunk -> chunk.types().forEach(t -> names.add(t.name)));
        assertThat(names).contains("jdk.types.StackTrace", "java.lang.Thread", "jdk.JavaMonitorEnter", "jdk.ThreadPark");
    }
}
