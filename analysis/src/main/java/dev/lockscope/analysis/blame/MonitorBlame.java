package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Intrinsic monitors, from {@code jdk.JavaMonitorEnter} and {@code jdk.JavaMonitorWait}.
 *
 * <p>JFR's {@code previousOwner} is the thread that handed the monitor to the waiter, not the owner
 * when the waiter blocked. So a wait is split at the hand-offs seen by other waiters of the same
 * monitor: another thread's contended enter that completed inside this wait says that its
 * previousOwner held the monitor until then (Fig. 4.4: T3 is blamed on T1 until T2 got the monitor,
 * then on T2). The rest of the wait is blamed on this wait's own previousOwner. Hand-offs to threads
 * that acquired without contention are not recorded and cannot be seen.
 */
final class MonitorBlame {
    /** A contended enter beginning this soon after the same thread's wait on the monitor ended re-acquires after it. */
    private static final long AFTER_WAIT_SLACK_NANOS = 1_000_000;

    private MonitorBlame() {
    }

    static LockId lockOf(MonitorEnter e) {
        return LockId.monitor(e.monitorClass(), e.address());
    }

    static void analyze(LockRecording rec, BlameCollector out) {
        MonitorOwnerChains chains = new MonitorOwnerChains(rec.monitorEnters(), rec.cpuSamples());
        Map<LockId, List<MonitorEnter>> byLock = new TreeMap<>();
        for (MonitorEnter e : rec.monitorEnters()) {
            byLock.computeIfAbsent(lockOf(e), k -> new ArrayList<>()).add(e);
        }
        Map<Long, List<MonitorWait>> waitsByThread = new HashMap<>();
        for (MonitorWait w : rec.monitorWaits()) {
            waitsByThread.computeIfAbsent(w.thread().javaTid(), k -> new ArrayList<>()).add(w);
        }
        byLock.forEach((lock, enters) -> analyzeMonitor(lock, enters, chains, waitsByThread, out));
        for (MonitorWait w : rec.monitorWaits()) {
            ThreadRef notifier = w.notifier() == null ? ThreadRef.UNKNOWN : w.notifier();
            out.add(new WaitRecord(LockId.monitor(w.monitorClass(), w.address()), w.thread(), w.frames(),
                    w.beginNanos(), w.endNanos() - w.beginNanos(), notifier, w.timedOut()));
        }
    }

    private static void analyzeMonitor(LockId lock, List<MonitorEnter> enters, MonitorOwnerChains chains,
                                       Map<Long, List<MonitorWait>> waitsByThread,
                                       BlameCollector out) {
        List<MonitorEnter> byEnd = new ArrayList<>(enters);
        byEnd.sort(Comparator.comparingLong(MonitorEnter::endNanos).thenComparingLong(e -> e.thread().javaTid()));
        for (MonitorEnter w : enters) {
            List<Handoff> inside = new ArrayList<>();
            long cursor = w.beginNanos();
            for (int i = SortedSearch.firstAfter(byEnd, MonitorEnter::endNanos, w.beginNanos()); i < byEnd.size(); i++) {
                MonitorEnter other = byEnd.get(i);
                if (other.endNanos() >= w.endNanos()) {
                    break;
                }
                if (other.thread().equals(w.thread())) {
                    continue;
                }
                inside.add(new Handoff(other.endNanos(), chains.causeOf(other.previousOwner(), lock, cursor, other.endNanos())));
                cursor = other.endNanos();
            }
            Cause tail = chains.causeOf(w.previousOwner(), lock, cursor, w.endNanos());
            boolean afterWait = reacquiresAfterWait(w, lock, waitsByThread.getOrDefault(w.thread().javaTid(), List.of()));
            for (WaitSplitter.Span s : WaitSplitter.split(w.beginNanos(), w.endNanos(), inside, tail)) {
                out.add(new Contention(lock, w.thread(), w.frames(), s.beginNanos(), s.durationNanos(), s.cause(), afterWait));
            }
        }
    }

    /** Object.wait on the stack, or the same thread's wait on this monitor ended just before. */
    private static boolean reacquiresAfterWait(MonitorEnter e, LockId lock, List<MonitorWait> waitsOfThread) {
        if (FrameText.anyMethodStartsWith(e.frames(), "java.lang.Object.wait")) {
            return true;
        }
        for (MonitorWait w : waitsOfThread) {
            if (LockId.monitor(w.monitorClass(), w.address()).equals(lock)
                    && w.endNanos() <= e.beginNanos() + AFTER_WAIT_SLACK_NANOS
                    && w.endNanos() >= e.beginNanos() - AFTER_WAIT_SLACK_NANOS) {
                return true;
            }
        }
        return false;
    }
}
