package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code timeline} member: per thread, the spans it spent running (CPU samples), blocked on a
 * monitor, parked, waiting ({@code Object.wait}) and sleeping, with the lock of each span.
 *
 * <p>Bounded for the page, whatever the recording: spans closer than {@link #RESOLUTION} of the
 * recording (half a pixel of a 1000-pixel-wide timeline) merge, each thread keeps its {@link #MAX_SPANS} longest spans, and
 * the {@link #MAX_THREADS} threads with the most time off-CPU are kept. Spans are flat integer
 * arrays {@code [begin µs, end µs, state, lock index or -1]} relative to the recording start.
 */
public final class ThreadTimeline implements ReportSection {
    public static final List<String> STATES = List.of("running", "blocked", "parked", "waiting", "sleeping");
    static final double RESOLUTION = 1.0 / 2000;
    static final int MAX_SPANS = 2000;
    static final int MAX_THREADS = 200;
    /** JFR's default Java sampling period, used when a thread has a single sample. */
    private static final long DEFAULT_SAMPLE_NANOS = 20_000_000;

    private record Span(long begin, long end, int state, int lock) {
    }

    private final Map<String, Integer> lockIndex = new LinkedHashMap<>();
    private final Map<ThreadRef, List<Span>> byThread = new LinkedHashMap<>();

    @Override
    public String member() {
        return "timeline";
    }

    @Override
    public JsonNode build(LockRecording recording, LockContention contention) {
        lockIndex.clear();
        byThread.clear();
        long end = recording.endNanos();
        for (ParkWait p : recording.parks()) {
            add(p.thread(), p.beginNanos(), p.isOpen() ? end : p.endNanos(), 2,
                    p.blockerClass() + "@" + Integer.toHexString(p.blockerHash()));
        }
        for (MonitorEnter e : recording.monitorEnters()) {
            add(e.thread(), e.beginNanos(), e.endNanos(), 1, e.monitorClass() + "@" + Long.toHexString(e.address()));
        }
        for (MonitorWait w : recording.monitorWaits()) {
            add(w.thread(), w.beginNanos(), w.endNanos(), 3, w.monitorClass() + "@" + Long.toHexString(w.address()));
        }
        for (Interval s : recording.sleeps()) {
            add(s.thread(), s.beginNanos(), s.endNanos(), 4, null);
        }
        addSamples(recording.cpuSamples());
        return toJson(recording);
    }

    private void add(ThreadRef thread, long begin, long end, int state, String lock) {
        int li = lock == null ? -1 : lockIndex.computeIfAbsent(lock, k -> lockIndex.size());
        byThread.computeIfAbsent(thread, k -> new ArrayList<>()).add(new Span(begin, Math.max(begin, end), state, li));
    }

    /** A sample stands for the sampling period after it, taken as the thread's shortest sample gap. */
    private void addSamples(List<CpuSample> samples) {
        Map<ThreadRef, List<Long>> times = new HashMap<>();
        for (CpuSample s : samples) {
            times.computeIfAbsent(s.thread(), k -> new ArrayList<>()).add(s.timeNanos());
        }
        times.forEach((thread, ts) -> {
            long period = Long.MAX_VALUE;
            for (int i = 1; i < ts.size(); i++) {
                long gap = ts.get(i) - ts.get(i - 1);
                if (gap > 0) {
                    period = Math.min(period, gap);
                }
            }
            period = period == Long.MAX_VALUE ? DEFAULT_SAMPLE_NANOS : period;
            for (long t : ts) {
                add(thread, t, t + period, 0, null);
            }
        });
    }

    private ObjectNode toJson(LockRecording recording) {
        long start = recording.startNanos();
        long merge = Math.max(1, (long) (recording.durationNanos() * RESOLUTION));
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("durationMicros", recording.durationNanos() / 1000);
        ArrayNode states = root.putArray("states");
        STATES.forEach(states::add);
        ArrayNode locks = root.putArray("locks");
        lockIndex.keySet().forEach(locks::add);
        List<Map.Entry<ThreadRef, List<Span>>> threads = new ArrayList<>(byThread.entrySet());
        threads.sort(Comparator.comparingLong((Map.Entry<ThreadRef, List<Span>> e) -> -offCpuNanos(e.getValue()))
                .thenComparingLong(e -> e.getKey().javaTid()));
        root.put("threadsLeftOut", Math.max(0, threads.size() - MAX_THREADS));
        long spansLeftOut = 0;
        ArrayNode out = root.putArray("threads");
        for (Map.Entry<ThreadRef, List<Span>> e : threads.subList(0, Math.min(MAX_THREADS, threads.size()))) {
            List<Span> spans = merged(e.getValue(), merge);
            if (spans.size() > MAX_SPANS) {
                spansLeftOut += spans.size() - MAX_SPANS;
                spans.sort(Comparator.comparingLong((Span s) -> s.begin - s.end)); // longest first
                spans = new ArrayList<>(spans.subList(0, MAX_SPANS));
                spans.sort(Comparator.comparingLong(Span::begin));
            }
            ObjectNode t = out.addObject();
            t.put("name", e.getKey().name());
            t.put("javaTid", e.getKey().javaTid());
            ArrayNode flat = t.putArray("spans");
            for (Span s : spans) {
                flat.add((s.begin - start) / 1000).add((s.end - start) / 1000).add(s.state).add(s.lock);
            }
        }
        root.put("spansLeftOut", spansLeftOut);
        return root;
    }

    private static long offCpuNanos(List<Span> spans) {
        long sum = 0;
        for (Span s : spans) {
            sum += s.state == 0 ? 0 : s.end - s.begin;
        }
        return sum;
    }

    /** Spans of the same state and lock that touch or lie closer than {@code gap} become one. */
    private static List<Span> merged(List<Span> spans, long gap) {
        List<Span> sorted = new ArrayList<>(spans);
        sorted.sort(Comparator.comparingInt(Span::state).thenComparingInt(Span::lock).thenComparingLong(Span::begin));
        List<Span> out = new ArrayList<>();
        Span open = null;
        for (Span s : sorted) {
            if (open != null && open.state == s.state && open.lock == s.lock && s.begin - open.end <= gap) {
                open = new Span(open.begin, Math.max(open.end, s.end), s.state, s.lock);
            } else {
                if (open != null) {
                    out.add(open);
                }
                open = s;
            }
        }
        if (open != null) {
            out.add(open);
        }
        out.sort(Comparator.comparingLong(Span::begin));
        return out;
    }
}
