package dev.lockscope.report.rules;

import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.core.EventNames;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.LockSummary;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.Unpark;

import java.util.Set;
import java.util.TreeSet;

/**
 * Which JFR event types a recording had, so that a rule can say which ones it missed. Some count as
 * had without any event, where no event means nothing happened rather than nothing was recorded:
 * the lockscope event types of a recording the agent made (no thread parked on a blocker), the JDK's
 * monitor events and {@code jdk.VirtualThreadPinned} in a recording the agent made (it enables them
 * at its threshold: an object pool's run had no contended monitor at all once), and
 * {@code jdk.VirtualThreadPinned} from a JVM whose metadata lacks the type (no virtual threads there to pin).
 */
public final class EventsSeen implements RecordingVisitor {

    private final Set<String> seen = new TreeSet<>();

    @Override
    public void parkBegin(ParkWait open) {
        seen.add(EventNames.PARK);
    }

    @Override
    public void parkEnd(ParkWait ended) {
        seen.add(EventNames.PARK);
    }

    @Override
    public void lockSummary(LockSummary s) {
        seen.add(EventNames.LOCK_SUMMARY);
    }

    @Override
    public void unpark(Unpark u) {
        seen.add(EventNames.UNPARK);
    }

    @Override
    public void monitorEnter(MonitorEnter e) {
        seen.add(EventNames.MONITOR_ENTER);
    }

    @Override
    public void monitorWait(MonitorWait w) {
        seen.add(EventNames.MONITOR_WAIT);
    }

    @Override
    public void cpuSample(CpuSample s) {
        seen.add(EventNames.EXECUTION_SAMPLE);
    }

    @Override
    public void sleep(Interval i) {
        seen.add(i.eventType());
    }

    @Override
    public void pinned(Interval i) {
        seen.add(EventNames.VIRTUAL_THREAD_PINNED);
    }

    @Override
    public void finish(RecordingInfo recording) {
        if (recording.madeByAgent()) {
            recording.declaredEventTypes().stream().filter(t -> t.startsWith(EventNames.LOCKSCOPE_PREFIX)).forEach(seen::add);
            seen.add(EventNames.VIRTUAL_THREAD_PINNED);
            seen.add(EventNames.MONITOR_ENTER);
            seen.add(EventNames.MONITOR_WAIT);
        } else if (!recording.declaredEventTypes().isEmpty()
                && !recording.declaredEventTypes().contains(EventNames.VIRTUAL_THREAD_PINNED)) {
            seen.add(EventNames.VIRTUAL_THREAD_PINNED);
        }
    }

    /** Adds the event types seen here to {@code all} (several recordings merged into one report). */
    public void addTo(EventsSeen all) {
        all.seen.addAll(seen);
    }

    public boolean has(String eventType) {
        return seen.contains(eventType);
    }
}
