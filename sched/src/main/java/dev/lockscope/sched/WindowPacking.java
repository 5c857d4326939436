package dev.lockscope.sched;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Places each thread's on-CPU time of one sampling window on {@code cpus} lanes with McNaughton's
 * wrap-around rule: fill lane 0 in thread order, continue on lane 1, and so on. A thread cut at a
 * lane's end continues at the start of the next lane; because no thread ran longer than the window,
 * its two pieces never overlap. This is the placement with the least overlap the samples allow, so
 * a serialised convoy gives parallelism 1 and threads that each ran the whole window give one lane
 * each. Threads that shared the window unevenly in reality get a lower estimate than the truth.
 */
public final class WindowPacking {
    private WindowPacking() {
    }

    /** @param ran on-CPU nanoseconds per tid within [start, start + window], in packing order */
    public static List<Transition> pack(long start, long window, int cpus, Map<Integer, Long> ran) {
        long total = 0;
        for (long r : ran.values()) {
            total += Math.min(r, window);
        }
        // Sampling skew can report a little more than cpus × window; scale down to fit.
        double scale = total > (long) cpus * window ? (double) cpus * window / total : 1.0;
        List<Transition> out = new ArrayList<>();
        List<Transition> wrapped = new ArrayList<>(); // pieces at lane starts, emitted first in time
        long pos = 0;
        for (Map.Entry<Integer, Long> e : ran.entrySet()) {
            long d = Math.round(Math.min(e.getValue(), window) * scale);
            if (d <= 0) {
                continue;
            }
            int tid = e.getKey();
            if (pos + d <= window) {
                out.add(new Transition(start + pos, tid, ThreadState.RUNNING));
                out.add(new Transition(start + pos + d, tid, ThreadState.BLOCKED));
                pos += d;
            } else {
                long head = window - pos;
                long tail = d - head;
                // tail on the next lane at [0, tail], head on this lane at [pos, window]; tail <= pos
                wrapped.add(new Transition(start, tid, ThreadState.RUNNING));
                wrapped.add(new Transition(start + tail, tid, ThreadState.BLOCKED));
                if (head > 0) {
                    out.add(new Transition(start + pos, tid, ThreadState.RUNNING));
                    out.add(new Transition(start + window, tid, ThreadState.BLOCKED));
                }
                pos = tail;
            }
            if (pos == window) {
                pos = 0;
            }
        }
        List<Transition> all = new ArrayList<>(wrapped.size() + out.size());
        all.addAll(wrapped);
        all.addAll(out);
        all.sort(java.util.Comparator.comparingLong(Transition::nanos)
                .thenComparing(t -> t.state() == ThreadState.RUNNING)); // ends before starts at a tie
        return all;
    }
}
