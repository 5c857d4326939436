package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.DeepRelease;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.Unpark;

/**
 * Owner blame (Hofer chapter 4): turns a recording into contention, each span blamed on the
 * thread that held the lock and the call chain in which it held it, plus conditional waits kept
 * apart. Fed by one pass over the recording; a pure function of it: the same recording always gives
 * the same result.
 */
public final class BlameAnalysis implements RecordingVisitor {
    private final BlameCollector out;
    private final ParkBlame parks;
    private final MonitorBlame monitors;
    private final HandoffHolds holds = new HandoffHolds();
    private BlameResult result;

    /**
     * Contention and waits summed by key: bounded by threads × places × distinct stacks, a place's objects past
     * {@link BlameCollector#OBJECTS_PER_PLACE} blamed as the place (the row the table makes of them).
     */
    public BlameAnalysis() {
        this(new BlameCollector(true));
    }

    /** With every lock object blamed apart ({@code --instances}: the table's rows are objects) or not. */
    public static BlameAnalysis byObject(boolean everyObjectApart) {
        return everyObjectApart ? new BlameAnalysis(new BlameCollector(false)) : new BlameAnalysis();
    }

    /** With another collector: tests keep every span apart with one. */
    BlameAnalysis(BlameCollector out) {
        this(out, ParkBlame.EXACT_WAITERS);
    }

    /** With another limit on the parks of one lock blamed one by one ({@link ParkBlame}): tests compare. */
    BlameAnalysis(BlameCollector out, int exactWaiters) {
        this.out = out;
        MonitorOwnerChains activities = new MonitorOwnerChains();
        parks = new ParkBlame(out, holds, exactWaiters, activities);
        monitors = new MonitorBlame(out, holds, activities);
    }

    @Override
    public void parkBegin(ParkWait open) {
        parks.parkBegin(open);
    }

    @Override
    public void unpark(Unpark u) {
        parks.unpark(u);
    }

    @Override
    public void parkEnd(ParkWait ended) {
        parks.parkEnd(ended);
        monitors.ownWait(ended.thread(), ended.beginNanos(), ended.endNanos(), ended.frames());
    }

    @Override
    public void sleep(Interval i) {
        monitors.ownWait(i.thread(), i.beginNanos(), i.endNanos(), i.frames());
        parks.activityEnded(i.thread(), i.endNanos());
    }

    /** A monitor owner blocked in socket or file I/O while it holds the monitor: off CPU, so in no CPU sample. */
    @Override
    public void blockingIo(Interval i) {
        monitors.ownWait(i.thread(), i.beginNanos(), i.endNanos(), i.frames());
        parks.activityEnded(i.thread(), i.endNanos());
    }

    @Override
    public void monitorEnter(MonitorEnter e) {
        monitors.monitorEnter(e);
    }

    @Override
    public void deepRelease(DeepRelease r) {
        monitors.deepRelease(r);
    }

    @Override
    public void monitorWait(MonitorWait w) {
        monitors.monitorWait(w);
    }

    @Override
    public void cpuSample(CpuSample s) {
        monitors.cpuSample(s);
        parks.activityEnded(s.thread(), s.timeNanos());
    }

    @Override
    public void finish(RecordingInfo info) {
        parks.finish(info);
        monitors.finish();
        result = out.result(info.threads()).withHandoffHolds(holds.result());
    }

    /** The result; available once the recording has been read. */
    public BlameResult result() {
        if (result == null) {
            throw new IllegalStateException("the recording has not been read to its end");
        }
        return result;
    }
}
