package dev.lockscope.report.model;

import dev.lockscope.analysis.model.CarrierMount;
import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The thread timeline ({@link Timeline}) of a recording: per thread, the spans it spent running (CPU samples), blocked on a
 * monitor, parked, waiting ({@code Object.wait}) and sleeping, with the lock of each span; and, for a virtual thread
 * in a recording made with {@code --sched} (agent option {@code carriers}), when it was mounted on which carrier. Those
 * spans go on the virtual thread's row, not the carrier's: a virtual thread's row already holds its waits, so the row
 * reads wait, then ran on a carrier, and the gap between them is the time it waited for one; a carrier's row would
 * be a blur of thousands of short-lived threads.
 *
 * <p>Bounded for the page, whatever the recording: spans closer than {@link #RESOLUTION} of the
 * recording (half a pixel of a 1000-pixel-wide timeline) merge, each thread keeps its {@link #MAX_SPANS} longest spans, and
 * the {@link #MAX_THREADS} threads with the most time off-CPU are kept. Spans are flat integer
 * arrays {@code [begin µs, end µs, state, lock index or -1]} relative to the recording start.
 *
 * <p>Bounded while reading, too: a thread holds at most {@link #SPANS_HELD} spans (and sample times);
 * past that they are merged at the resolution of the recording read so far (never coarser than the
 * final one, so merging again at the end gives the same spans), and when that is not enough the
 * shortest are left out and counted in {@code spansLeftOut}. Recordings with fewer spans per thread
 * are not affected.
 */
public final class ThreadTimeline implements RecordingVisitor {
    public static final List<String> STATES = List.of("running", "blocked", "parked", "waiting", "sleeping", "mounted");
    /** A virtual thread mounted on a carrier (its lock column is the carrier's index): on a CPU, unless preempted or pinned. */
    static final int MOUNTED = 5;
    static final double RESOLUTION = 1.0 / 2000;
    static final int MAX_SPANS = 2000;
    static final int MAX_THREADS = 200;
    /** Spans (or CPU sample times) a thread holds while the recording is read. */
    static final int SPANS_HELD = 4 * MAX_SPANS;
    /** JFR's default Java sampling period, used when a thread has a single sample. */
    private static final long DEFAULT_SAMPLE_NANOS = 20_000_000;

    private record Span(long begin, long end, int state, int lock) {
    }

    /** One thread's spans and CPU samples so far. */
    private static final class Track {
        List<Span> spans = new ArrayList<>();
        /** CPU sample times in arrival (time) order; turned into spans once the sampling period is known. */
        List<Long> samples = new ArrayList<>();
        /** The shortest positive gap between two consecutive samples. */
        long period = Long.MAX_VALUE;
        long lastSample = Long.MIN_VALUE;
        long spansDropped;
    }

    /**
     * Where a lock first appears: parks, then monitor entries, then monitor waits, each by begin time
     * (ties: sequence number or thread id). Locks are numbered in this order, whatever the order the
     * events were read in.
     */
    private record FirstSeen(int kind, long begin, long tie) implements Comparable<FirstSeen> {
        @Override
        public int compareTo(FirstSeen o) {
            int c = Integer.compare(kind, o.kind);
            if (c == 0) {
                c = Long.compare(begin, o.begin);
            }
            return c != 0 ? c : Long.compare(tie, o.tie);
        }
    }

    /** Locks by name: their id while reading (in the order read) and where each was first seen. */
    private final Map<String, Integer> lockIds = new LinkedHashMap<>();
    private final List<FirstSeen> firstSeen = new ArrayList<>();
    private final Map<ThreadRef, Track> byThread = new LinkedHashMap<>();
    /** Open parks by thread id: the reader pairs begins with ends, and a thread has one park open at a time. */
    private final Map<Long, ParkWait> openParks = new LinkedHashMap<>();
    /** Mounted spans by virtual thread id, put on its row at {@link #build}; carriers by Java thread id, numbered as seen. */
    private final Map<Long, Track> mountsByVirtualThread = new LinkedHashMap<>();
    private final Map<Long, Integer> carrierIds = new LinkedHashMap<>();
    private long firstTime = Long.MAX_VALUE;
    private long lastTime = Long.MIN_VALUE;

    @Override
    public void parkBegin(ParkWait p) {
        openParks.put(p.thread().javaTid(), p);
    }

    @Override
    public void parkEnd(ParkWait p) {
        openParks.remove(p.thread().javaTid());
        addPark(p, p.endNanos());
    }

    /** Parks still open end with the recording. */
    @Override
    public void finish(RecordingInfo info) {
        openParks.values().forEach(p -> addPark(p, info.endNanos()));
        openParks.clear();
        byThread.values().forEach(ThreadTimeline::sampleSpans);
    }

    private void addPark(ParkWait p, long end) {
        add(p.thread(), p.beginNanos(), end, 2, p.blockerClass() + "@" + Integer.toHexString(p.blockerHash()),
                new FirstSeen(0, p.beginNanos(), p.beginSeq()));
    }

    @Override
    public void monitorEnter(MonitorEnter e) {
        add(e.thread(), e.beginNanos(), e.endNanos(), 1, e.monitorClass() + "@" + Long.toHexString(e.address()),
                new FirstSeen(1, e.beginNanos(), e.thread().javaTid()));
    }

    @Override
    public void monitorWait(MonitorWait w) {
        add(w.thread(), w.beginNanos(), w.endNanos(), 3, w.monitorClass() + "@" + Long.toHexString(w.address()),
                new FirstSeen(2, w.beginNanos(), w.thread().javaTid()));
    }

    @Override
    public void sleep(Interval s) {
        add(s.thread(), s.beginNanos(), s.endNanos(), 4, null, null);
    }

    @Override
    public void carrierMount(CarrierMount m) {
        int carrier = carrierIds.computeIfAbsent(m.carrierJavaTid(), k -> carrierIds.size());
        Track t = mountsByVirtualThread.computeIfAbsent(m.virtualThreadId(), k -> new Track());
        long begin = m.mountEpochNanos();
        long end = Math.max(begin, m.unmountEpochNanos());
        t.spans.add(new Span(begin, end, MOUNTED, carrier));
        seen(begin, end);
        if (t.spans.size() > SPANS_HELD) {
            compact(t);
        }
    }

    /** A sample stands for the sampling period after it, taken as the thread's shortest sample gap. */
    @Override
    public void cpuSample(CpuSample s) {
        Track t = track(s.thread());
        long gap = s.timeNanos() - t.lastSample;
        if (t.lastSample != Long.MIN_VALUE && gap > 0) {
            t.period = Math.min(t.period, gap);
        }
        t.lastSample = s.timeNanos();
        t.samples.add(s.timeNanos());
        seen(s.timeNanos(), s.timeNanos());
        if (t.samples.size() > SPANS_HELD) {
            // Samples become spans with the period found so far (the shortest gap, which a long
            // recording shows early), so that a thread holds a bounded number of them.
            sampleSpans(t);
            compact(t);
        }
    }

    private void add(ThreadRef thread, long begin, long end, int state, String lock, FirstSeen seen) {
        int li = -1;
        if (lock != null) {
            li = lockIds.computeIfAbsent(lock, k -> {
                firstSeen.add(seen);
                return lockIds.size();
            });
            if (seen.compareTo(firstSeen.get(li)) < 0) {
                firstSeen.set(li, seen);
            }
        }
        Track t = track(thread);
        t.spans.add(new Span(begin, Math.max(begin, end), state, li));
        seen(begin, end);
        if (t.spans.size() > SPANS_HELD) {
            compact(t);
        }
    }

    private Track track(ThreadRef thread) {
        return byThread.computeIfAbsent(thread, k -> new Track());
    }

    private void seen(long begin, long end) {
        firstTime = Math.min(firstTime, begin);
        lastTime = Math.max(lastTime, end);
    }

    private static void sampleSpans(Track t) {
        long period = t.period == Long.MAX_VALUE ? DEFAULT_SAMPLE_NANOS : t.period;
        for (long at : t.samples) {
            t.spans.add(new Span(at, at + period, 0, -1));
        }
        t.samples = new ArrayList<>();
    }

    /** Merges at the resolution of what was read so far; drops the shortest spans if still too many. */
    private void compact(Track t) {
        t.spans = merged(t.spans, Math.max(1, (long) ((lastTime - firstTime) * RESOLUTION)));
        if (t.spans.size() > SPANS_HELD / 2) {
            int keep = SPANS_HELD / 2;
            t.spansDropped += t.spans.size() - keep;
            t.spans = longest(t.spans, keep);
        }
    }

    /** The timeline of what was read, bounded for the page. */
    public Timeline build(RecordingInfo recording) {
        long start = recording.startNanos();
        long merge = Math.max(1, (long) (recording.durationNanos() * RESOLUTION));
        List<String> names = new ArrayList<>(lockIds.keySet());
        List<Integer> byFirstSeen = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            byFirstSeen.add(i);
        }
        byFirstSeen.sort(Comparator.comparing(firstSeen::get));
        int[] index = new int[names.size()];
        List<String> locks = new ArrayList<>();
        for (int i = 0; i < byFirstSeen.size(); i++) {
            index[byFirstSeen.get(i)] = i;
            locks.add(names.get(byFirstSeen.get(i)));
        }
        attachMounts(recording);
        List<Map.Entry<ThreadRef, Track>> threads = new ArrayList<>(byThread.entrySet());
        threads.sort(Comparator.comparingLong((Map.Entry<ThreadRef, Track> e) -> -offCpuNanos(e.getValue().spans))
                .thenComparingLong(e -> e.getKey().javaTid()));
        long spansLeftOut = 0;
        List<Timeline.Track> out = new ArrayList<>();
        for (Map.Entry<ThreadRef, Track> e : threads.subList(0, Math.min(MAX_THREADS, threads.size()))) {
            List<Span> spans = merged(renumbered(e.getValue().spans, index), merge);
            spansLeftOut += e.getValue().spansDropped;
            if (spans.size() > MAX_SPANS) {
                spansLeftOut += spans.size() - MAX_SPANS;
                spans = longest(spans, MAX_SPANS);
            }
            long[] flat = new long[4 * spans.size()];
            for (int i = 0; i < spans.size(); i++) {
                Span s = spans.get(i);
                flat[4 * i] = (s.begin - start) / 1000;
                flat[4 * i + 1] = (s.end - start) / 1000;
                flat[4 * i + 2] = s.state;
                flat[4 * i + 3] = s.lock;
            }
            out.add(new Timeline.Track(e.getKey().name(), e.getKey().javaTid(), flat));
        }
        List<String> carriers = new ArrayList<>();
        for (long carrier : carrierIds.keySet()) {
            ThreadRef ref = recording.threads().get(carrier);
            carriers.add(ref != null ? ref.name() : "carrier #" + carrier);
        }
        return new Timeline(recording.durationNanos() / 1000, STATES, locks, carriers, out,
                Math.max(0, threads.size() - MAX_THREADS), spansLeftOut);
    }

    /** Each virtual thread's mounted spans onto its row (the row of its waits when it has one). */
    private void attachMounts(RecordingInfo recording) {
        if (mountsByVirtualThread.isEmpty()) {
            return;
        }
        Map<Long, ThreadRef> virtualRows = new java.util.HashMap<>();
        for (ThreadRef t : byThread.keySet()) {
            if (t.virtual() || dev.lockscope.analysis.model.VirtualThreads.isVirtual(t)) {
                virtualRows.putIfAbsent(t.javaTid(), t);
            }
        }
        for (Map.Entry<Long, Track> e : mountsByVirtualThread.entrySet()) {
            long id = e.getKey();
            ThreadRef row = virtualRows.get(id);
            if (row == null) {
                ThreadRef known = recording.threads().get(id);
                row = known != null ? known : new ThreadRef(id, 0, dev.lockscope.core.ThreadNames.virtual(id, null), true);
            }
            Track t = track(row);
            t.spans.addAll(e.getValue().spans);
            t.spansDropped += e.getValue().spansDropped;
            if (t.spans.size() > SPANS_HELD) {
                compact(t);
            }
        }
        mountsByVirtualThread.clear();
    }

    private static List<Span> renumbered(List<Span> spans, int[] index) {
        List<Span> out = new ArrayList<>(spans.size());
        for (Span s : spans) {
            out.add(s.lock < 0 || s.state == MOUNTED ? s : new Span(s.begin, s.end, s.state, index[s.lock]));
        }
        return out;
    }

    /** The {@code keep} longest spans, in begin order. */
    private static List<Span> longest(List<Span> spans, int keep) {
        List<Span> sorted = new ArrayList<>(spans);
        sorted.sort(Comparator.comparingLong((Span s) -> s.begin - s.end)); // longest first
        List<Span> out = new ArrayList<>(sorted.subList(0, keep));
        out.sort(Comparator.comparingLong(Span::begin));
        return out;
    }

    private static long offCpuNanos(List<Span> spans) {
        long sum = 0;
        for (Span s : spans) {
            sum += s.state == 0 || s.state == MOUNTED ? 0 : s.end - s.begin;
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
