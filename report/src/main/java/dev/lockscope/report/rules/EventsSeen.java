package dev.lockscope.report.rules;

import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.core.EventNames;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.LockSummary;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.Unpark;

import java.util.Set;
import java.util.TreeSet;

/** Which JFR event types a recording had, so that a rule can say which ones it missed. */
public final class EventsSeen implements RecordingVisitor {
    public static final String PARK = EventNames.PARK;
    public static final String LOCK_SUMMARY = EventNames.LOCK_SUMMARY;
    public static final String UNPARK = EventNames.UNPARK;
    public static final String MONITOR_ENTER = EventNames.MONITOR_ENTER;
    public static final String MONITOR_WAIT = EventNames.MONITOR_WAIT;
    public static final String EXECUTION_SAMPLE = EventNames.EXECUTION_SAMPLE;
    public static final String VIRTUAL_THREAD_PINNED = EventNames.VIRTUAL_THREAD_PINNED;

    private final Set<String> seen = new TreeSet<>();

    @Override
    public void parkBegin(ParkWait open) {
        seen.add(PARK);
    }

    @Override
    public void parkEnd(ParkWait ended) {
        seen.add(PARK);
    }

    @Override
    public void lockSummary(LockSummary s) {
        seen.add(LOCK_SUMMARY);
    }

    @Override
    public void unpark(Unpark u) {
        seen.add(UNPARK);
    }

    @Override
    public void monitorEnter(MonitorEnter e) {
        seen.add(MONITOR_ENTER);
    }

    @Override
    public void monitorWait(MonitorWait w) {
        seen.add(MONITOR_WAIT);
    }

    @Override
    public void cpuSample(CpuSample s) {
        seen.add(EXECUTION_SAMPLE);
    }

    @Override
    public void sleep(Interval i) {
        seen.add(i.eventType());
    }

    @Override
    public void pinned(Interval i) {
        seen.add(VIRTUAL_THREAD_PINNED);
    }

    public boolean has(String eventType) {
        return seen.contains(eventType);
    }
}
