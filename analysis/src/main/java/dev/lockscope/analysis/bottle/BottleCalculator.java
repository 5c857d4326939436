package dev.lockscope.analysis.bottle;

import dev.lockscope.sched.RunQueueWait;
import dev.lockscope.sched.ThreadState;
import dev.lockscope.sched.Transition;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replays transitions in time order as the paper's kernel module does (Du Bois et al. §2.2): between two
 * consecutive events the set of running threads R_i is constant; the interval's length t_i is
 * charged to every running thread under r_i = |R_i|. Events at the same instant delimit an empty
 * interval and so need no ordering. Only the part of each interval inside [from, to) counts;
 * events before {@code from} just set the threads' states.
 *
 * <p>With {@link VirtualThreadMounts}, a carrier's time while it ran a virtual thread is charged to the
 * virtual thread (its key, a negative number) instead of the carrier: who runs is unchanged (r_i counts
 * OS threads, as the paper's kernel module does), only whose box the interval goes to. So the boxes'
 * running times sum to the OS threads' running time exactly: nothing is counted twice.
 */
public final class BottleCalculator {
    /** Per-thread tallies and machine-level figures of one window. */
    public record Result(Map<Integer, ConcurrencyTally> tallies, long busyNanos, long oversubscribedNanos,
                         int maxRunnable, long maxRunning) {
    }

    private BottleCalculator() {
    }

    /**
     * @param transitions sorted by time
     * @param waits       run-queue waits (fallback source) counted as preemption when their sample
     *                    ends inside the window
     * @param cpus        CPUs available, to detect oversubscription (runnable &gt; cpus)
     */
    public static Result compute(List<Transition> transitions, List<RunQueueWait> waits, long from, long to,
                                 int cpus) {
        return compute(transitions, waits, from, to, cpus, VirtualThreadMounts.NONE);
    }

    /** The same, a carrier's time charged to the virtual thread it ran then ({@code tallies} keyed by its negative key). */
    public static Result compute(List<Transition> transitions, List<RunQueueWait> waits, long from, long to,
                                 int cpus, VirtualThreadMounts mounts) {
        List<VirtualThreadMounts.Mount> byStart = mounts.mounts();
        List<VirtualThreadMounts.Mount> byEnd = new java.util.ArrayList<>(byStart);
        byEnd.sort(java.util.Comparator.comparingLong(VirtualThreadMounts.Mount::toNanos));
        /** The virtual thread each carrier runs now, by carrier tid. */
        Map<Integer, Integer> chargedTo = new HashMap<>();
        int mi = 0;
        int ui = 0;
        Map<Integer, ThreadState> state = new HashMap<>();
        Set<Integer> running = new LinkedHashSet<>();
        Set<Integer> runnable = new LinkedHashSet<>();
        Map<Integer, ConcurrencyTally> tallies = new HashMap<>();
        long busy = 0;
        long oversubscribed = 0;
        int maxRunnable = 0;
        long maxRunning = 0;
        long prev = from;
        int i = 0;
        int n = transitions.size();
        while (true) {
            long nextTransition = i < n ? transitions.get(i).nanos() : Long.MAX_VALUE;
            // at one instant an unmount before a mount, so that a carrier switching threads runs the new one
            long nextUnmount = ui < byEnd.size() ? byEnd.get(ui).toNanos() : Long.MAX_VALUE;
            long nextMount = mi < byStart.size() ? byStart.get(mi).fromNanos() : Long.MAX_VALUE;
            long next = Math.min(Math.min(nextTransition, Math.min(nextUnmount, nextMount)), to);
            long end = next;
            if (end > prev) {
                long t = end - prev;
                int r = running.size();
                if (r > 0) {
                    busy += t;
                    maxRunning = Math.max(maxRunning, r);
                    for (int tid : running) {
                        tallies.computeIfAbsent(charged(chargedTo, tid), k -> new ConcurrencyTally()).addRunning(r, t);
                    }
                }
                for (int tid : runnable) {
                    tallies.computeIfAbsent(charged(chargedTo, tid), k -> new ConcurrencyTally()).addPreempted(t);
                }
                int ready = r + runnable.size();
                maxRunnable = Math.max(maxRunnable, ready);
                if (ready > cpus) {
                    oversubscribed += t;
                }
                prev = end;
            }
            if (next >= to || i >= n && ui >= byEnd.size() && mi >= byStart.size()) {
                break;
            }
            if (nextUnmount == next) {
                VirtualThreadMounts.Mount m = byEnd.get(ui++);
                chargedTo.remove(m.carrierTid(), m.virtualKey());
                prev = Math.max(prev, next);
                continue;
            }
            if (nextMount == next) {
                VirtualThreadMounts.Mount m = byStart.get(mi++);
                if (m.toNanos() > m.fromNanos()) {
                    chargedTo.put(m.carrierTid(), m.virtualKey());
                }
                prev = Math.max(prev, next);
                continue;
            }
            Transition tr = transitions.get(i++);
            prev = Math.max(prev, tr.nanos());
            ThreadState old = state.put(tr.tid(), tr.state());
            if (old == tr.state()) {
                continue;
            }
            running.remove(tr.tid());
            runnable.remove(tr.tid());
            if (tr.state() == ThreadState.RUNNING) {
                running.add(tr.tid());
            } else if (tr.state() == ThreadState.RUNNABLE) {
                runnable.add(tr.tid());
            }
        }
        for (RunQueueWait w : waits) {
            if (w.nanos() > from && w.nanos() <= to) {
                tallies.computeIfAbsent(w.tid(), k -> new ConcurrencyTally()).addPreempted(w.waitNanos());
            }
        }
        return new Result(tallies, busy, oversubscribed, maxRunnable, maxRunning);
    }

    private static int charged(Map<Integer, Integer> chargedTo, int tid) {
        if (chargedTo.isEmpty()) {
            return tid;
        }
        Integer virtual = chargedTo.get(tid);
        return virtual == null ? tid : virtual;
    }
}
