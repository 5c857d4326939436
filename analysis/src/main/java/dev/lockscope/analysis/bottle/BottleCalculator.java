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
 * Replays transitions in time order as the paper's kernel module does (seed 003 §2.2): between two
 * consecutive events the set of running threads R_i is constant; the interval's length t_i is
 * charged to every running thread under r_i = |R_i|. Events at the same instant delimit an empty
 * interval and so need no ordering. Only the part of each interval inside [from, to) counts;
 * events before {@code from} just set the threads' states.
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
            long next = i < n ? transitions.get(i).nanos() : to;
            long end = Math.min(next, to);
            if (end > prev) {
                long t = end - prev;
                int r = running.size();
                if (r > 0) {
                    busy += t;
                    maxRunning = Math.max(maxRunning, r);
                    for (int tid : running) {
                        tallies.computeIfAbsent(tid, k -> new ConcurrencyTally()).addRunning(r, t);
                    }
                }
                for (int tid : runnable) {
                    tallies.computeIfAbsent(tid, k -> new ConcurrencyTally()).addPreempted(t);
                }
                int ready = r + runnable.size();
                maxRunnable = Math.max(maxRunnable, ready);
                if (ready > cpus) {
                    oversubscribed += t;
                }
                prev = end;
            }
            if (i >= n || next >= to) {
                break;
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
}
