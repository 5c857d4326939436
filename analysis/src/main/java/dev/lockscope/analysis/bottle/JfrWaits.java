package dev.lockscope.analysis.bottle;

import dev.lockscope.core.Frame;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.JdkPark;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.ThreadLife;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayList;
import java.util.List;

/**
 * Off-CPU intervals of threads from a recording's events (jdk.JavaMonitorEnter, Wait, ThreadPark,
 * ThreadSleep, ThreadStart, ThreadEnd), fed by the report's one pass of {@link RecordingReader} when
 * {@code lockscope bottle} explains a neck. The intervals are placed on the scheduling time line with
 * the trace's clock offset. Only events above the recording's thresholds exist;
 * shorter waits stay unexplained.
 *
 * <p>The lockscope agent does not enable {@code jdk.ThreadPark} by default (it would walk every
 * parking thread's stack a second time); in a recording without any {@code jdk.ThreadPark} the parks
 * come from lockscope's own park events (begin, blocker class and the waiter's stack, end). Those
 * cover parks on a blocker only.
 */
public final class JfrWaits implements RecordingVisitor {
    /** An interval in epoch nanoseconds, before the clock offset is known. */
    private record Epoch(int tid, long start, long end, String state, String detail) {
    }

    private final List<Epoch> waits = new ArrayList<>();
    private final List<Epoch> lockscopeParks = new ArrayList<>();
    private boolean jdkParks;

    /** The waits on the scheduling time line: epoch time minus {@code epochOffsetNanos}. */
    public List<WaitInterval> intervals(long epochOffsetNanos) {
        List<WaitInterval> out = new ArrayList<>();
        for (Epoch e : waits) {
            out.add(interval(e, epochOffsetNanos));
        }
        if (!jdkParks) {
            lockscopeParks.forEach(e -> out.add(interval(e, epochOffsetNanos)));
        }
        return out;
    }

    private static WaitInterval interval(Epoch e, long offset) {
        return new WaitInterval(e.tid(), e.start() == Long.MIN_VALUE ? Long.MIN_VALUE : e.start() - offset,
                e.end() == Long.MAX_VALUE ? Long.MAX_VALUE : e.end() - offset, e.state(), e.detail());
    }

    @Override
    public void monitorEnter(MonitorEnter e) {
        add(waits, e.thread(), e.beginNanos(), e.endNanos(), "blocked on monitor", detail(e.monitorClass(), e.frames()));
    }

    @Override
    public void monitorWait(MonitorWait w) {
        add(waits, w.thread(), w.beginNanos(), w.endNanos(), "waiting (Object.wait)", detail(w.monitorClass(), w.frames()));
    }

    @Override
    public void jdkPark(JdkPark p) {
        jdkParks = true;
        add(waits, p.thread(), p.beginNanos(), p.endNanos(), "parked", detail(p.parkedClass(), p.frames()));
    }

    @Override
    public void sleep(Interval i) {
        add(waits, i.thread(), i.beginNanos(), i.endNanos(), "sleeping", detail(null, i.frames()));
    }

    @Override
    public void threadLife(ThreadLife t) {
        if (t.ended()) {
            add(waits, t.thread(), t.timeNanos(), Long.MAX_VALUE, "finished", "");
        } else {
            add(waits, t.thread(), Long.MIN_VALUE, t.timeNanos(), "not started yet", "");
        }
    }

    @Override
    public void parkEnd(ParkWait ended) {
        add(lockscopeParks, ended.thread(), ended.beginNanos(), ended.endNanos(), "parked",
                detail(ended.blockerClass(), ended.frames()));
    }

    private static void add(List<Epoch> to, ThreadRef t, long start, long end, String state, String detail) {
        if (t.osTid() > 0) {
            to.add(new Epoch((int) t.osTid(), start, end, state, detail));
        }
    }

    /** "java.lang.Object at app.Foo.bar:42": the lock's class and the frame that waited. */
    private static String detail(String cls, List<String> frames) {
        String where = where(frames);
        return (cls == null ? "" : cls) + (where == null ? "" : (cls == null ? "" : " ") + "at " + where);
    }

    /** "app.Foo.bar:42": the first frame below the JDK's (and lockscope's hooks') wait/park machinery. */
    private static String where(List<String> frames) {
        Frame f = Frame.firstApplication(frames);
        return f == null ? null : f.toString();
    }
}
