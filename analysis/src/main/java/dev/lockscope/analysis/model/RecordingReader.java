package dev.lockscope.analysis.model;

import dev.lockscope.analysis.RecordingException;
import dev.lockscope.core.Frames;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a JFR recording made by the lockscope agent into a {@link LockRecording}. The only class
 * that knows JFR event names and field names.
 */
public final class RecordingReader {
    /** Frames of lockscope's own hooks sit on top of LockSupport in every stack the agent records. */
    private static final String HOOK_PREFIX = "dev.lockscope.agent.boot.";

    private final Map<Long, ThreadRef> threads = new TreeMap<>();
    private final Map<RecordedStackTrace, List<String>> frameCache = new HashMap<>();

    private RecordingReader() {
    }

    public static LockRecording read(Path path) throws RecordingException {
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
            return new RecordingReader().readAll(path);
        } catch (NoSuchFileException e) {
            throw new RecordingException("recording not found: " + path, e);
        } catch (AccessDeniedException e) {
            throw new RecordingException("cannot read recording (permission denied): " + path, e);
        } catch (EOFException e) {
            throw new RecordingException(JfrFileCheck.truncated() + ": " + path, e);
        } catch (IOException | RuntimeException e) {
            // The chunk structure was fine, but JFR could not parse the content. Its message is kept
            // as a hint; the exception class is not, since users read this line.
            String detail = e.getMessage() == null ? "" : " (" + e.getMessage().lines().findFirst().orElse("") + ")";
            throw new RecordingException("recording is damaged or truncated: " + path + detail, e);
        }
    }

    private LockRecording readAll(Path path) throws IOException {
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        List<RecordedEvent> parkBegins = new ArrayList<>();
        Map<String, RecordedEvent> parkEnds = new HashMap<>();
        List<Unpark> unparks = new ArrayList<>();
        List<MonitorEnter> enters = new ArrayList<>();
        List<MonitorWait> waits = new ArrayList<>();
        List<CpuSample> samples = new ArrayList<>();
        List<Interval> sleeps = new ArrayList<>();
        List<Interval> acquires = new ArrayList<>();
        Map<Long, long[]> life = new HashMap<>();
        boolean any = false;
        try (RecordingFile file = new RecordingFile(path)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                any = true;
                long b = nanos(e.getStartTime());
                long en = nanos(e.getEndTime());
                start = Math.min(start, b);
                end = Math.max(end, en);
                switch (e.getEventType().getName()) {
                    case "lockscope.ParkBegin" -> parkBegins.add(e);
                    case "lockscope.ParkEnd" -> parkEnds.put(thread(e.getThread()).javaTid() + ":" + e.getLong("beginSeq"), e);
                    case "lockscope.Unpark" -> unparks.add(new Unpark(thread(e.getThread()), b, e.getLong("seq"),
                            e.getLong("targetTid"), e.getString("targetName"), e.getString("blockerClass"),
                            e.getInt("blockerHash"), frames(e.getStackTrace())));
                    case "lockscope.Acquire" -> acquires.add(new Interval("lockscope.Acquire", thread(e.getThread()), b, en, List.of()));
                    case "jdk.JavaMonitorEnter" -> enters.add(new MonitorEnter(thread(e.getThread()), className(e, "monitorClass"),
                            e.getLong("address"), b, en, nullableThread(e.getThread("previousOwner")), frames(e.getStackTrace())));
                    case "jdk.JavaMonitorWait" -> waits.add(new MonitorWait(thread(e.getThread()), className(e, "monitorClass"),
                            e.getLong("address"), b, en, nullableThread(e.getThread("notifier")), e.getBoolean("timedOut"),
                            e.getLong("timeout"), frames(e.getStackTrace())));
                    case "jdk.ExecutionSample" -> samples.add(new CpuSample(thread(e.getThread("sampledThread")), b,
                            frames(e.getStackTrace())));
                    case "jdk.ThreadSleep" -> sleeps.add(new Interval("jdk.ThreadSleep", thread(e.getThread()), b, en, frames(e.getStackTrace())));
                    case "jdk.ThreadStart" -> life.computeIfAbsent(thread(e.getThread("thread")).javaTid(),
                            k -> new long[] {LockRecording.OPEN, LockRecording.OPEN})[0] = b;
                    case "jdk.ThreadEnd" -> life.computeIfAbsent(thread(e.getThread("thread")).javaTid(),
                            k -> new long[] {LockRecording.OPEN, LockRecording.OPEN})[1] = b;
                    default -> {
                        // other events are not used
                    }
                }
            }
        }
        if (!any) {
            start = end = 0;
        }
        List<ParkWait> parks = new ArrayList<>(parkBegins.size());
        for (RecordedEvent pb : parkBegins) {
            ThreadRef t = thread(pb.getThread());
            long seq = pb.getLong("seq");
            RecordedEvent pe = parkEnds.get(t.javaTid() + ":" + seq);
            long ownerTid = pb.getLong("ownerTid");
            parks.add(new ParkWait(t, pb.getString("blockerClass"), pb.getInt("blockerHash"), nanos(pb.getStartTime()),
                    pe == null ? LockRecording.OPEN : nanos(pe.getEndTime()), seq, pe == null ? 0 : pe.getLong("seq"),
                    pe != null && pe.getBoolean("timedOut"), ownerTid, pb.getString("ownerName"),
                    pb.getLong("timeoutNanos"), pb.getLong("deadlineMillis"), frames(pb.getStackTrace())));
        }
        List<ThreadLifetime> lifetimes = new ArrayList<>();
        life.forEach((tid, se) -> lifetimes.add(new ThreadLifetime(threads.getOrDefault(tid, ThreadRef.UNKNOWN), se[0], se[1])));
        parks.sort(Comparator.comparingLong(ParkWait::beginNanos).thenComparingLong(ParkWait::beginSeq));
        unparks.sort(Comparator.comparingLong(Unpark::seq));
        enters.sort(Comparator.comparingLong(MonitorEnter::beginNanos).thenComparingLong(m -> m.thread().javaTid()));
        waits.sort(Comparator.comparingLong(MonitorWait::beginNanos).thenComparingLong(m -> m.thread().javaTid()));
        samples.sort(Comparator.comparingLong(CpuSample::timeNanos).thenComparingLong(s -> s.thread().javaTid()));
        sleeps.sort(Comparator.comparingLong(Interval::beginNanos).thenComparingLong(s -> s.thread().javaTid()));
        acquires.sort(Comparator.comparingLong(Interval::beginNanos).thenComparingLong(s -> s.thread().javaTid()));
        lifetimes.sort(Comparator.comparingLong(l -> l.thread().javaTid()));
        return new LockRecording(path, start, end, Map.copyOf(threads), List.copyOf(parks), List.copyOf(unparks),
                List.copyOf(enters), List.copyOf(waits), List.copyOf(samples), List.copyOf(sleeps),
                List.copyOf(acquires), List.copyOf(lifetimes));
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
        ThreadRef ref = new ThreadRef(tid, t.getOSThreadId(), name == null ? "?" : name);
        threads.put(tid, ref); // a renamed thread keeps its latest name
        return ref;
    }

    private ThreadRef nullableThread(RecordedThread t) {
        return t == null ? null : thread(t);
    }

    private static String className(RecordedEvent e, String field) {
        RecordedClass c = e.getValue(field);
        return c == null ? "?" : c.getName();
    }

    private List<String> frames(RecordedStackTrace st) {
        if (st == null) {
            return List.of();
        }
        List<String> cached = frameCache.get(st);
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
            out.add(Frames.format(cls, f.getMethod().getName(), f.getLineNumber()));
        }
        List<String> frozen = List.copyOf(out);
        frameCache.put(st, frozen);
        return frozen;
    }

    static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
