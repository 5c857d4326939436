package dev.lockscope.analysis.bottle;

import dev.lockscope.sched.SchedSource;
import dev.lockscope.sched.SchedTrace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds bottle graphs from a {@link SchedTrace}: the whole window, or one graph per time slice. */
public final class BottleGraphs {
    /** Widest at the bottom (seed 003 §2), then taller first, then by tid/name: deterministic. */
    static final Comparator<Box> BOTTOM_FIRST = Comparator.comparing(Box::parallelism).reversed()
            .thenComparing(Comparator.comparing(Box::share).reversed())
            .thenComparing(Box::name);

    private BottleGraphs() {
    }

    public static BottleGraph whole(SchedTrace trace, ThreadClassifier classifier) {
        return of(trace, classifier, trace.startNanos(), trace.endNanos());
    }

    /** One graph per slice of {@code sliceNanos} from the window start; the last slice may be shorter. */
    public static List<BottleGraph> slices(SchedTrace trace, ThreadClassifier classifier, long sliceNanos) {
        if (sliceNanos <= 0) {
            throw new IllegalArgumentException("slice must be positive");
        }
        List<BottleGraph> out = new ArrayList<>();
        for (long from = trace.startNanos(); from < trace.endNanos(); from += sliceNanos) {
            out.add(of(trace, classifier, from, Math.min(trace.endNanos(), from + sliceNanos)));
        }
        return out;
    }

    public static BottleGraph of(SchedTrace trace, ThreadClassifier classifier, long from, long to) {
        BottleCalculator.Result r = BottleCalculator.compute(trace.transitions(), trace.runQueueWaits(), from, to,
                Math.max(1, trace.cpus()));
        Map<Integer, String> names = new LinkedHashMap<>();
        for (int tid : r.tallies().keySet()) {
            names.put(tid, trace.nameOf(tid));
        }
        Map<Integer, ThreadClassifier.Assignment> groups = classifier.assign(names, trace.pid());
        List<ThreadBox> threads = new ArrayList<>();
        for (Map.Entry<Integer, ConcurrencyTally> e : r.tallies().entrySet()) {
            ConcurrencyTally t = e.getValue();
            if (t.running() == 0) {
                continue; // only preempted, never ran: no box, but its wait is in no graph total either
            }
            ThreadClassifier.Assignment a = groups.get(e.getKey());
            threads.add(new ThreadBox(e.getKey(), names.get(e.getKey()), a.group(), a.kind(), t.share(),
                    Rational.of(t.running()), t.parallelism(), t.preemptedNanos()));
        }
        threads.sort(Comparator.comparing((ThreadBox b) -> b.parallelism()).reversed()
                .thenComparing(Comparator.comparing(ThreadBox::share).reversed())
                .thenComparingInt(ThreadBox::osTid));
        List<GroupBox> groupBoxes = group(threads);
        boolean perf = trace.source() == SchedSource.PERF;
        return new BottleGraph(from, to, trace.cpus(), trace.source().fileName(), trace.approximateReason(),
                threads, groupBoxes, r.busyNanos(), perf ? r.oversubscribedNanos() : 0,
                perf ? r.maxRunnable() : 0);
    }

    /** Seed 003 §2.1: a group's S = Σ S_j, A = Σ A_j, P = A / S. */
    public static List<GroupBox> group(List<ThreadBox> threads) {
        Map<String, List<ThreadBox>> byGroup = new LinkedHashMap<>();
        for (ThreadBox t : threads) {
            byGroup.computeIfAbsent(t.group(), k -> new ArrayList<>()).add(t);
        }
        List<GroupBox> out = new ArrayList<>();
        for (Map.Entry<String, List<ThreadBox>> e : byGroup.entrySet()) {
            Rational s = Rational.ZERO;
            Rational a = Rational.ZERO;
            long preempted = 0;
            for (ThreadBox t : e.getValue()) {
                s = s.plus(t.share());
                a = a.plus(t.running());
                preempted += t.preemptedNanos();
            }
            out.add(new GroupBox(e.getKey(), e.getValue().get(0).kind(), e.getValue().size(), s, a,
                    s.isZero() ? Rational.ZERO : a.dividedBy(s), preempted));
        }
        out.sort(BOTTOM_FIRST);
        return out;
    }
}
