package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
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
 *
 * <p>Fed in end order, it keeps bounded recent history: per monitor its {@link #ENTERS_KEPT} latest
 * contended enters (and per thread of them, the latest one that fell out, and the latest hand-off),
 * and per thread its {@link #SAMPLES_KEPT} latest CPU samples. A span older than that history is
 * blamed from what is left of it.
 */
final class MonitorOwnerChains {
    static final int ENTERS_KEPT = 256;
    static final int SAMPLES_KEPT = 256;

    /** One thread's part of one monitor's history. */
    private static final class ThreadOnMonitor {
        /** Its contended enters among the monitor's kept ones, oldest first. */
        final ArrayDeque<MonitorEnter> enters = new ArrayDeque<>();
        /** End times of other threads' enters that name it previousOwner, among the monitor's kept ones. */
        final ArrayDeque<Long> handoffs = new ArrayDeque<>();
        MonitorEnter lastDropped;
        long lastDroppedHandoff = Long.MIN_VALUE;
    }

    /** One monitor's history. */
    private static final class Monitor {
        final ArrayDeque<MonitorEnter> enters = new ArrayDeque<>();
        final Map<Long, ThreadOnMonitor> threads = new HashMap<>();

        ThreadOnMonitor of(ThreadRef t) {
            return threads.computeIfAbsent(t.javaTid(), k -> new ThreadOnMonitor());
        }
    }

    private final Map<LockId, Monitor> monitors = new HashMap<>();
    private final Map<Long, ArrayDeque<CpuSample>> samplesByThread = new HashMap<>();

    void sample(CpuSample s) {
        ArrayDeque<CpuSample> ring = samplesByThread.computeIfAbsent(s.thread().javaTid(), k -> new ArrayDeque<>());
        ring.addLast(s);
        if (ring.size() > SAMPLES_KEPT) {
            ring.removeFirst();
        }
    }

    /** The next contended enter of {@code lock}, in end order. */
    void enter(LockId lock, MonitorEnter e) {
        Monitor m = monitors.computeIfAbsent(lock, k -> new Monitor());
        m.enters.addLast(e);
        m.of(e.thread()).enters.addLast(e);
        if (isHandoff(e)) {
            m.of(e.previousOwner()).handoffs.addLast(e.endNanos());
        }
        if (m.enters.size() > ENTERS_KEPT) {
            MonitorEnter dropped = m.enters.removeFirst();
            ThreadOnMonitor t = m.of(dropped.thread());
            t.lastDropped = t.enters.removeFirst();
            if (isHandoff(dropped)) {
                ThreadOnMonitor prev = m.of(dropped.previousOwner());
                prev.lastDroppedHandoff = Math.max(prev.lastDroppedHandoff, prev.handoffs.removeFirst());
            }
        }
    }

    /** The monitor's kept enters, latest first. */
    Iterator<MonitorEnter> latestFirst(LockId lock) {
        Monitor m = monitors.get(lock);
        return m == null ? List.<MonitorEnter>of().iterator() : m.enters.descendingIterator();
    }

    /** The cause for {@code owner} holding {@code lock} during [from, to]; unknown when owner is null. */
    Cause causeOf(ThreadRef owner, LockId lock, long from, long to) {
        if (owner == null || owner.equals(ThreadRef.UNKNOWN)) {
            return Cause.UNKNOWN;
        }
        ThreadOnMonitor history = monitors.get(lock).threads.get(owner.javaTid());
        MonitorEnter site = history == null ? null : lastAcquisition(history, to);
        if (site != null && !handedOffBetween(history, site.endNanos(), to)) {
            return new Cause(owner, site.frames(), OwnerChain.ACQUISITION_SITE);
        }
        List<String> sampled = mostFrequentStack(owner, from, to);
        if (sampled != null) {
            return new Cause(owner, sampled, OwnerChain.SAMPLED);
        }
        return Cause.threadOnly(owner);
    }

    private static boolean isHandoff(MonitorEnter e) {
        return e.previousOwner() != null && !e.previousOwner().equals(e.thread());
    }

    /** The owner's latest contended enter of the monitor that ended no later than {@code notAfter}. */
    private static MonitorEnter lastAcquisition(ThreadOnMonitor history, long notAfter) {
        MonitorEnter best = history.lastDropped != null && history.lastDropped.endNanos() <= notAfter
                ? history.lastDropped : null;
        for (MonitorEnter e : history.enters) {
            if (e.endNanos() <= notAfter && (best == null || e.endNanos() >= best.endNanos())) {
                best = e;
            }
        }
        return best;
    }

    /** Whether the owner handed the monitor to another thread strictly between the two times. */
    private static boolean handedOffBetween(ThreadOnMonitor history, long after, long before) {
        if (history.lastDroppedHandoff > after && history.lastDroppedHandoff < before) {
            return true;
        }
        for (long t : history.handoffs) {
            if (t > after && t < before) {
                return true;
            }
        }
        return false;
    }

    /** Most frequent non-empty stack of the owner sampled in [from, to]; ties go to the smaller text. */
    private List<String> mostFrequentStack(ThreadRef owner, long from, long to) {
        Map<String, Integer> counts = new TreeMap<>();
        Map<String, List<String>> stacks = new HashMap<>();
        for (CpuSample s : samplesByThread.getOrDefault(owner.javaTid(), new ArrayDeque<>())) {
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
}
