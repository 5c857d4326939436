package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The call chain in which a monitor owner held the monitor. The stock JVM records no release event,
 * so this is an approximation, tried in this order:
 * <ol>
 *   <li>{@link OwnerChain#ACQUISITION_SITE}: the chain of the owner's own most recent contended
 *       acquisition of the same monitor that completed before the span ended, unless the owner is seen
 *       handing the monitor to another thread after that acquisition: then its current tenure began
 *       with an acquisition JFR did not record (no contention), and the old site would be a guess;</li>
 *   <li>{@link OwnerChain#SAMPLED}: the owner's most frequent stack in the CPU samples inside the span;</li>
 *   <li>{@link OwnerChain#UNKNOWN}: the owner thread only.</li>
 * </ol>
 */
final class MonitorOwnerChains {
    private static final Comparator<MonitorEnter> BY_END = Comparator.comparingLong(MonitorEnter::endNanos);

    private final Map<String, List<MonitorEnter>> entersByMonitorAndThread = new HashMap<>();
    /** Times at which a thread handed a monitor to another thread (their contended enters naming it previousOwner). */
    private final Map<String, List<Long>> handoffsByMonitorAndOwner = new HashMap<>();
    private final Map<Long, List<CpuSample>> samplesByThread = new HashMap<>();

    MonitorOwnerChains(List<MonitorEnter> enters, List<CpuSample> samplesInTimeOrder) {
        for (MonitorEnter e : enters) {
            LockId lock = MonitorBlame.lockOf(e);
            entersByMonitorAndThread.computeIfAbsent(key(lock, e.thread()), k -> new ArrayList<>()).add(e);
            if (e.previousOwner() != null && !e.previousOwner().equals(e.thread())) {
                handoffsByMonitorAndOwner.computeIfAbsent(key(lock, e.previousOwner()), k -> new ArrayList<>()).add(e.endNanos());
            }
        }
        entersByMonitorAndThread.values().forEach(l -> l.sort(BY_END));
        handoffsByMonitorAndOwner.values().forEach(l -> l.sort(null));
        for (CpuSample s : samplesInTimeOrder) {
            samplesByThread.computeIfAbsent(s.thread().javaTid(), k -> new ArrayList<>()).add(s);
        }
    }

    /** The cause for {@code owner} holding {@code lock} during [from, to]; unknown when owner is null. */
    Cause causeOf(ThreadRef owner, LockId lock, long from, long to) {
        if (owner == null || owner.equals(ThreadRef.UNKNOWN)) {
            return Cause.UNKNOWN;
        }
        MonitorEnter site = lastAcquisition(owner, lock, to);
        if (site != null && !handedOffBetween(owner, lock, site.endNanos(), to)) {
            return new Cause(owner, site.frames(), OwnerChain.ACQUISITION_SITE);
        }
        List<String> sampled = mostFrequentStack(owner, from, to);
        if (sampled != null) {
            return new Cause(owner, sampled, OwnerChain.SAMPLED);
        }
        return Cause.threadOnly(owner);
    }

    private MonitorEnter lastAcquisition(ThreadRef owner, LockId lock, long notAfter) {
        List<MonitorEnter> list = entersByMonitorAndThread.getOrDefault(key(lock, owner), List.of());
        int after = SortedSearch.firstAfter(list, MonitorEnter::endNanos, notAfter);
        return after > 0 ? list.get(after - 1) : null;
    }

    /** Whether the owner handed the monitor to another thread strictly between the two times. */
    private boolean handedOffBetween(ThreadRef owner, LockId lock, long after, long before) {
        List<Long> times = handoffsByMonitorAndOwner.getOrDefault(key(lock, owner), List.of());
        int next = SortedSearch.firstAfter(times, Long::longValue, after);
        return next < times.size() && times.get(next) < before;
    }

    /** Most frequent non-empty stack of the owner sampled in [from, to]; ties go to the smaller text. */
    private List<String> mostFrequentStack(ThreadRef owner, long from, long to) {
        Map<String, Integer> counts = new TreeMap<>();
        Map<String, List<String>> stacks = new HashMap<>();
        for (CpuSample s : samplesByThread.getOrDefault(owner.javaTid(), List.of())) {
            if (s.timeNanos() >= from && s.timeNanos() <= to && !s.frames().isEmpty()) {
                String text = String.join("\n", s.frames());
                counts.merge(text, 1, Integer::sum);
                stacks.putIfAbsent(text, s.frames());
            }
        }
        String best = null;
        int bestCount = 0;
        for (Map.Entry<String, Integer> e : counts.entrySet()) { // TreeMap: ascending text, so ties keep the smaller
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best == null ? null : stacks.get(best);
    }

    private static String key(LockId lock, ThreadRef thread) {
        return lock.label() + "/" + thread.javaTid();
    }
}
