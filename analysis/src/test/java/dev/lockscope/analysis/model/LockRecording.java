package dev.lockscope.analysis.model;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.LockContentionAnalysis;
import dev.lockscope.analysis.blame.BlameAnalysis;
import dev.lockscope.analysis.blame.BlameResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Test fixture: a recording held in memory as lists of events, hand-built or collected from a small
 * file with {@link #collect}. Analyses never need one; {@link #replay} feeds it to them in the order
 * {@link RecordingReader} would, so a hand-built recording goes through the same code as a file.
 * Times are nanoseconds since the epoch.
 *
 * @param threads every thread seen, by Java thread id
 * @param parks     complete parks; {@link ParkWait#OPEN} ends for parks still parked at the end
 * @param summaries the agent's {@code lockscope.LockSummary} events
 */
public record LockRecording(Path source, long startNanos, long endNanos, Map<Long, ThreadRef> threads,
                            List<ParkWait> parks, List<Unpark> unparks, List<MonitorEnter> monitorEnters,
                            List<MonitorWait> monitorWaits, List<CpuSample> cpuSamples, List<Interval> sleeps,
                            List<LockSummary> summaries) {
    /** End time of a wait still in progress when the recording stopped. */
    public static final long OPEN = ParkWait.OPEN;

    public LockRecording {
        threads = Map.copyOf(threads);
        parks = List.copyOf(parks);
        unparks = List.copyOf(unparks);
        monitorEnters = List.copyOf(monitorEnters);
        monitorWaits = List.copyOf(monitorWaits);
        cpuSamples = List.copyOf(cpuSamples);
        sleeps = List.copyOf(sleeps);
        summaries = List.copyOf(summaries);
    }

    /** A recording without the agent's summaries (hand-built: every park is in {@code parks}). */
    public LockRecording(Path source, long startNanos, long endNanos, Map<Long, ThreadRef> threads,
                         List<ParkWait> parks, List<Unpark> unparks, List<MonitorEnter> monitorEnters,
                         List<MonitorWait> monitorWaits, List<CpuSample> cpuSamples, List<Interval> sleeps) {
        this(source, startNanos, endNanos, threads, parks, unparks, monitorEnters, monitorWaits, cpuSamples, sleeps, List.of());
    }

    public long durationNanos() {
        return endNanos - startNanos;
    }

    public RecordingInfo info() {
        return new RecordingInfo(source, startNanos, endNanos, threads);
    }

    /** Feeds every event to the visitors, as {@link RecordingReader#read} would, and finishes them. */
    public RecordingInfo replay(RecordingVisitor... visitors) {
        // the whole recording fits the window: events are released in exactly the promised order
        EventOrder order = new EventOrder(Integer.MAX_VALUE, List.of(visitors));
        parks.forEach(order::park);
        unparks.forEach(order::unpark);
        monitorEnters.forEach(e -> order.timed(e.endNanos(), e));
        monitorWaits.forEach(w -> order.timed(w.endNanos(), w));
        cpuSamples.forEach(s -> order.timed(s.timeNanos(), s));
        sleeps.forEach(s -> order.timed(s.endNanos(), s));
        summaries.forEach(s -> order.timed(s.timeNanos(), s));
        RecordingInfo info = info();
        order.finish(info);
        return info;
    }

    /** The contention table of this recording. */
    public LockContention contention(ContentionOptions options) {
        LockContentionAnalysis analysis = new LockContentionAnalysis(options);
        replay(analysis);
        return analysis.result();
    }

    /** Owner blame of this recording, summed by key as reports see it. */
    public BlameResult blame() {
        BlameAnalysis blame = new BlameAnalysis();
        replay(blame);
        return blame.result();
    }

    /** Reads a whole (small) recording into memory, e.g. for a test that inspects its events. */
    public static LockRecording collect(Path path) throws RecordingException {
        Collector c = new Collector();
        RecordingInfo info = RecordingReader.read(path, c);
        c.parks.sort(Comparator.comparingLong(ParkWait::beginNanos).thenComparingLong(ParkWait::beginSeq));
        return new LockRecording(path, info.startNanos(), info.endNanos(), info.threads(), c.parks, c.unparks, c.enters,
                c.waits, c.samples, c.sleeps, c.summaries);
    }

    private static final class Collector implements RecordingVisitor {
        final List<ParkWait> parks = new ArrayList<>();
        final List<ParkWait> open = new ArrayList<>();
        final List<Unpark> unparks = new ArrayList<>();
        final List<MonitorEnter> enters = new ArrayList<>();
        final List<MonitorWait> waits = new ArrayList<>();
        final List<CpuSample> samples = new ArrayList<>();
        final List<Interval> sleeps = new ArrayList<>();
        final List<LockSummary> summaries = new ArrayList<>();

        @Override
        public void lockSummary(LockSummary s) {
            summaries.add(s);
        }

        @Override
        public void parkBegin(ParkWait p) {
            open.add(p);
        }

        @Override
        public void parkEnd(ParkWait p) {
            open.removeIf(o -> o.thread().javaTid() == p.thread().javaTid() && o.beginNanos() == p.beginNanos());
            parks.add(p);
        }

        @Override
        public void unpark(Unpark u) {
            unparks.add(u);
        }

        @Override
        public void monitorEnter(MonitorEnter e) {
            enters.add(e);
        }

        @Override
        public void monitorWait(MonitorWait w) {
            waits.add(w);
        }

        @Override
        public void cpuSample(CpuSample s) {
            samples.add(s);
        }

        @Override
        public void sleep(Interval i) {
            sleeps.add(i);
        }

        @Override
        public void finish(RecordingInfo info) {
            parks.addAll(open);
        }
    }
}
