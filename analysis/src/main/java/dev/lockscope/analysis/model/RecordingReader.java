package dev.lockscope.analysis.model;

import dev.lockscope.analysis.RecordingException;
import dev.lockscope.core.Frames;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a JFR recording made by the lockscope agent in one pass and feeds its events to
 * {@link RecordingVisitor}s. The only class that knows JFR event names and field names.
 *
 * <p>Memory does not grow with the number of events: JFR's {@link EventStream} holds one chunk at a
 * time, each event is turned into a small model record at once, strings and call chains are
 * interned (one copy per distinct text or stack), and {@link EventOrder} holds a bounded window.
 */
public final class RecordingReader {
    /** Frames of lockscope's own hooks sit on top of LockSupport in every stack the agent records. */
    private static final String HOOK_PREFIX = "dev.lockscope.agent.boot.";
    /** Events held to put lockscope's events into sequence order (and JFR's into end order). */
    static final int REORDER_WINDOW = 1 << 14;
    private static final int CHUNK_STACKS_KEPT = 1 << 16;

    private final Map<Long, ThreadRef> threads = new TreeMap<>();
    /** For the virtual-thread scheduler's parallelism: the property when set, else container, else machine CPUs. */
    private int parallelism;
    private int containerCpus;
    private int cpus;
    private final Map<String, String> strings = new HashMap<>();
    private final Map<List<String>, List<String>> stacks = new HashMap<>();
    /** JFR's stack-trace objects of the current chunk: the same object recurs within a chunk only. */
    private final Map<RecordedStackTrace, List<String>> chunkStacks = new IdentityHashMap<>();
    private final EventOrder order;
    private long start = Long.MAX_VALUE;
    private long end = Long.MIN_VALUE;

    private RecordingReader(List<RecordingVisitor> visitors) {
        this.order = new EventOrder(REORDER_WINDOW, visitors);
    }

    /**
     * Streams the recording through the visitors, then calls their {@link RecordingVisitor#finish}.
     *
     * @throws RecordingException with a one-line message when the file is missing or not a complete JFR recording
     */
    public static RecordingInfo read(Path path, RecordingVisitor... visitors) throws RecordingException {
        if (!Files.exists(path)) {
            throw new RecordingException("recording not found: " + path, null);
        }
        if (!Files.isRegularFile(path)) {
            throw new RecordingException("not a file: " + path, null);
        }
        try {
            String problem = JfrFileCheck.problem(path);
            if (problem != null) {
                throw new RecordingException(problem + ": " + path, null);
            }
            return new RecordingReader(List.of(visitors)).readAll(path);
        } catch (UncheckedIOException e) {
            throw failure(path, e.getCause());
        } catch (IOException | RuntimeException e) {
            throw failure(path, e);
        }
    }

    private static RecordingException failure(Path path, Exception e) {
        if (e instanceof NoSuchFileException) {
            return new RecordingException("recording not found: " + path, e);
        }
        if (e instanceof AccessDeniedException) {
            return new RecordingException("cannot read recording (permission denied): " + path, e);
        }
        if (e instanceof EOFException) {
            return new RecordingException(JfrFileCheck.truncated() + ": " + path, e);
        }
        // The chunk structure was fine, but JFR could not parse the content. Its message is kept
        // as a hint; the exception class is not, since users read this line.
        String detail = e.getMessage() == null ? "" : " (" + e.getMessage().lines().findFirst().orElse("") + ")";
        return new RecordingException("recording is damaged or truncated: " + path + detail, e);
    }

    private RecordingInfo readAll(Path path) throws IOException {
        try (EventStream stream = EventStream.openFile(path)) {
            stream.setOrdered(true);
            stream.onEvent(this::accept);
            stream.onFlush(chunkStacks::clear);
            stream.start();
        }
        boolean any = start != Long.MAX_VALUE;
        int carriers = parallelism > 0 ? parallelism : containerCpus > 0 ? containerCpus : cpus;
        if (carriers > 0) {
            order.virtualThreadCarriers(carriers);
        }
        RecordingInfo info = new RecordingInfo(path, any ? start : 0, any ? end : 0, threads);
        order.finish(info);
        return info;
    }

    private void accept(RecordedEvent e) {
        long b = nanos(e.getStartTime());
        long en = nanos(e.getEndTime());
        start = Math.min(start, b);
        end = Math.max(end, en);
        switch (e.getEventType().getName()) {
            case "lockscope.Park" -> order.park(new ParkWait(thread(e.getThread()), text(e.getString("blockerClass")),
                    e.getInt("blockerHash"), b, en, e.getLong("handoffAtPark"), e.getLong("handoffAtWake"),
                    e.getBoolean("timedOut"), e.getLong("ownerTid"), text(e.getString("ownerName")),
                    e.getLong("timeoutNanos"), e.getLong("deadlineMillis"), frames(e.getStackTrace())));
            case "lockscope.Unpark" -> order.unpark(new Unpark(thread(e.getThread()), b, e.getLong("handoff"),
                    e.getLong("targetTid"), text(e.getString("targetName")), text(e.getString("blockerClass")),
                    e.getInt("blockerHash"), frames(e.getStackTrace())));
            case "lockscope.LockSummary" -> order.timed(b, new LockSummary(b, text(e.getString("blockerClass")),
                    e.getInt("blockerHash"), e.getLong("collectionThreshold"), e.getBoolean("collecting"),
                    e.getLong("timesParked"), e.getInt("parkedNow"), e.getInt("peakParked"), e.getLong("threadTimeNanos"),
                    e.getLong("realTimeNanos"), e.getLong("lifeTimeNanos"), text(e.getString("firstThread")),
                    frames(e.getString("firstFrames"))));
            case "jdk.JavaMonitorEnter" -> {
                MonitorEnter entered = new MonitorEnter(thread(e.getThread()), className(e, "monitorClass"),
                        e.getLong("address"), b, en, nullableThread(e.getThread("previousOwner")), frames(e.getStackTrace()));
                order.timed(en, entered);
                if (isVirtual(e.getThread())) { // recorded for a virtual thread only while it is pinned
                    order.timed(en, new Interval("jdk.JavaMonitorEnter", entered.thread(), b, en, entered.frames()));
                }
            }
            case "jdk.VirtualThreadPinned" -> order.timed(en, new Interval("jdk.VirtualThreadPinned", thread(e.getThread()), b, en,
                    frames(e.getStackTrace())));
            case "jdk.CPUInformation" -> cpus = e.getInt("hwThreads");
            case "jdk.ContainerConfiguration" -> containerCpus = (int) Math.ceil(e.getDouble("effectiveCpuCount"));
            case "jdk.InitialSystemProperty" -> {
                if ("jdk.virtualThreadScheduler.parallelism".equals(e.getString("key"))) {
                    parallelism = parseIntOrZero(e.getString("value"));
                }
            }
            case "lockscope.VirtualMonitorEnter" -> {
                long vtid = e.getLong("virtualThreadId");
                ThreadRef waiter = new ThreadRef(vtid, 0, text(VirtualThreads.displayName(vtid, e.getString("virtualThreadName"))));
                threads.put(vtid, waiter);
                List<String> frames = frames(e.getString("frames"));
                String monitorClass = e.getString("monitorClass");
                long identity = Integer.toUnsignedLong(e.getInt("monitorHash"));
                if (monitorClass == null && !frames.isEmpty()) {
                    // a JDK without ThreadSnapshot: one monitor per site where virtual threads blocked
                    monitorClass = "(monitor entered at " + frames.get(0) + ")";
                    identity = Integer.toUnsignedLong(frames.get(0).hashCode());
                }
                order.timed(en, new MonitorEnter(waiter, monitorClass == null ? "?" : text(monitorClass), identity, b, en,
                        VirtualThreads.PREVIOUS_ACQUIRER, frames));
            }
            case "jdk.JavaMonitorWait" -> order.timed(en, new MonitorWait(thread(e.getThread()), className(e, "monitorClass"),
                    e.getLong("address"), b, en, nullableThread(e.getThread("notifier")), e.getBoolean("timedOut"),
                    e.getLong("timeout"), frames(e.getStackTrace())));
            case "jdk.ExecutionSample" -> order.timed(b, new CpuSample(thread(e.getThread("sampledThread")), b,
                    frames(e.getStackTrace())));
            case "jdk.ThreadSleep" -> order.timed(en, new Interval("jdk.ThreadSleep", thread(e.getThread()), b, en,
                    frames(e.getStackTrace())));
            // threads are named by every event they appear in, the latest name winning
            case "jdk.ThreadStart", "jdk.ThreadEnd" -> thread(e.getThread("thread"));
            case "lockscope.Acquire" -> thread(e.getThread());
            default -> {
                // other events only widen the recording's time span
            }
        }
    }

    private ThreadRef thread(RecordedThread t) {
        if (t == null) {
            return ThreadRef.UNKNOWN;
        }
        long tid = t.getJavaThreadId();
        String name = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
        ThreadRef known = threads.get(tid);
        if (known != null && known.name().equals(name)) {
            return known;
        }
        ThreadRef ref = new ThreadRef(tid, t.getOSThreadId(),
                isVirtual(t) ? text(VirtualThreads.displayName(tid, name)) : name == null ? "?" : text(name));
        threads.put(tid, ref); // a renamed thread keeps its latest name
        return ref;
    }

    private static boolean isVirtual(RecordedThread t) {
        return t != null && t.hasField("virtual") && t.getBoolean("virtual"); // the field is JDK 21+
    }

    private static int parseIntOrZero(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private ThreadRef nullableThread(RecordedThread t) {
        return t == null ? null : thread(t);
    }

    private String className(RecordedEvent e, String field) {
        RecordedClass c = e.getValue(field);
        return c == null ? "?" : text(c.getName());
    }

    private String text(String s) {
        return s == null ? null : strings.computeIfAbsent(s, k -> k);
    }

    private List<String> frames(RecordedStackTrace st) {
        if (st == null) {
            return List.of();
        }
        List<String> cached = chunkStacks.get(st);
        if (cached != null) {
            return cached;
        }
        List<String> out = new ArrayList<>(st.getFrames().size());
        for (RecordedFrame f : st.getFrames()) {
            if (f.getMethod() == null) {
                continue;
            }
            String cls = f.getMethod().getType().getName();
            if (out.isEmpty() && cls.startsWith(HOOK_PREFIX)) {
                continue;
            }
            out.add(text(Frames.format(cls, f.getMethod().getName(), f.getLineNumber())));
        }
        List<String> interned = stacks.computeIfAbsent(List.copyOf(out), k -> k);
        if (chunkStacks.size() >= CHUNK_STACKS_KEPT) {
            chunkStacks.clear(); // in case the stream flushes rarely: it is a cache only
        }
        chunkStacks.put(st, interned);
        return interned;
    }

    private List<String> frames(String lines) {
        List<String> out = VirtualThreads.parseFrames(lines);
        out.replaceAll(this::text);
        return stacks.computeIfAbsent(List.copyOf(out), k -> k);
    }

    static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
