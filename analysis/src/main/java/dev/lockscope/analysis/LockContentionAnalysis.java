package dev.lockscope.analysis;

import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.core.IntervalReplay;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockTable;
import dev.lockscope.core.LockWaits;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The park-contention metrics of seed 000 §3.7 from a recording, per lock:
 * <ul>
 *   <li>park blockers ({@code lockscope.ParkBegin}/{@code ParkEnd}), keyed by blocker class and
 *       identity hash; a park with no end is "parked now" (§3.7.6);</li>
 *   <li>contended monitors ({@code jdk.JavaMonitorEnter}), keyed by monitor class and the JVM's
 *       monitor address, where "parked" reads "blocked on entry".</li>
 * </ul>
 * TotalExecutionTime (§3.7.12/§3.7.13) is the recording's duration. The agent computes the same
 * table live at exit from the same core formulas ({@link dev.lockscope.core.ParkTally}).
 */
public final class LockContentionAnalysis {
    private LockContentionAnalysis() {
    }

    public static LockContention analyze(LockRecording recording, ContentionOptions options) {
        long total = recording.durationNanos();
        List<LockMetrics> collected = new ArrayList<>();
        collected.addAll(metrics(parkBlockers(recording, options.collectionThreshold()), total));
        collected.addAll(metrics(contendedMonitors(recording, options.collectionThreshold()), total));
        List<LockMetrics> shown = new ArrayList<>();
        for (LockMetrics m : collected) {
            // §3.3.2: "filtering all the records with number of parks less than valueprintThreshold"
            if (m.timesParked() >= options.printThreshold()) {
                shown.add(m);
            }
        }
        return new LockContention(recording.source(), recording.startNanos(), total, options,
                LockTable.ranked(shown), collected.size() - shown.size());
    }

    /** Parks grouped by blocker, in the recording's begin order. */
    static Map<String, LockWaits> parkBlockers(LockRecording recording, long collectionThreshold) {
        Map<String, LockWaits> byBlocker = new LinkedHashMap<>();
        for (ParkWait p : recording.parks()) {
            String hash = Integer.toHexString(p.blockerHash());
            byBlocker.computeIfAbsent(p.blockerClass() + "@" + hash,
                            k -> new LockWaits(LockKind.PARK, p.blockerClass(), hash, collectionThreshold))
                    .add(p.beginNanos(), p.isOpen() ? IntervalReplay.OPEN : p.endNanos(), p.thread().name(), p.frames());
        }
        return byBlocker;
    }

    /** Monitor entries that blocked, grouped by monitor, in the recording's begin order. */
    static Map<String, LockWaits> contendedMonitors(LockRecording recording, long collectionThreshold) {
        Map<String, LockWaits> byMonitor = new LinkedHashMap<>();
        for (MonitorEnter e : recording.monitorEnters()) {
            String address = Long.toHexString(e.address());
            byMonitor.computeIfAbsent(e.monitorClass() + "@" + address,
                            k -> new LockWaits(LockKind.MONITOR, e.monitorClass(), address, collectionThreshold))
                    .add(e.beginNanos(), e.endNanos(), e.thread().name(), e.frames());
        }
        return byMonitor;
    }

    private static List<LockMetrics> metrics(Map<String, LockWaits> locks, long totalExecutionNanos) {
        List<LockMetrics> out = new ArrayList<>(locks.size());
        for (LockWaits w : locks.values()) {
            LockMetrics m = w.metrics(totalExecutionNanos);
            if (m != null) {
                out.add(m);
            }
        }
        return out;
    }
}
