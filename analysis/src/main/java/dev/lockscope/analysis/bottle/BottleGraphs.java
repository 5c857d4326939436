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
    /** Widest at the bottom (Du Bois et al. §2), then taller first, then by tid/name: deterministic. */
    static final Comparator<Box> BOTTOM_FIRST = Comparator.comparing(Box::parallelism).reversed()
            .thenComparing(Comparator.comparing(Box::share).reversed())
            .thenComparing(Box::name);

    private BottleGraphs() {
    }

    public static BottleGraph whole(SchedTrace trace, ThreadClassifier classifier) {
        return whole(trace, classifier, VirtualThreadMounts.NONE);
    }

    /** The whole window, carriers' time split among the virtual threads they ran ({@code mounts}). */
    public static BottleGraph whole(SchedTrace trace, ThreadClassifier classifier, VirtualThreadMounts mounts) {
        return of(trace, classifier, trace.startNanos(), trace.endNanos(), mounts);
    }

    /** One graph per slice of {@code sliceNanos} from the window start; the last slice may be shorter. */
    public static List<BottleGraph> slices(SchedTrace trace, ThreadClassifier classifier, long sliceNanos) {
        return slices(trace, classifier, sliceNanos, VirtualThreadMounts.NONE);
    }

    /** The same with carriers split among their virtual threads. */
    public static List<BottleGraph> slices(SchedTrace trace, ThreadClassifier classifier, long sliceNanos,
                                           VirtualThreadMounts mounts) {
        if (sliceNanos <= 0) {
            throw new IllegalArgumentException("slice must be positive");
        }
        List<BottleGraph> out = new ArrayList<>();
        for (long from = trace.startNanos(); from < trace.endNanos(); from += sliceNanos) {
            out.add(of(trace, classifier, from, Math.min(trace.endNanos(), from + sliceNanos), mounts));
        }
        return out;
    }

    public static BottleGraph of(SchedTrace trace, ThreadClassifier classifier, long from, long to) {
        return of(trace, classifier, from, to, VirtualThreadMounts.NONE);
    }

    /**
     * The graph over [from, to). With {@code mounts}, the virtual threads of one pool are one box (the
     * time their carriers ran them; 10,000 request threads are one box, not 10,000) and each carrier's box
     * keeps the time it ran none.
     */
    public static BottleGraph of(SchedTrace trace, ThreadClassifier classifier, long from, long to,
                                 VirtualThreadMounts mounts) {
        BottleCalculator.Result r = BottleCalculator.compute(trace.transitions(), trace.runQueueWaits(), from, to,
                Math.max(1, trace.cpus()), mounts);
        Map<Integer, String> names = new LinkedHashMap<>();
        Map<String, ConcurrencyTally> pools = new java.util.TreeMap<>();
        Map<String, Integer> poolSizes = new java.util.HashMap<>();
        for (Map.Entry<Integer, ConcurrencyTally> e : r.tallies().entrySet()) {
            int key = e.getKey();
            if (key >= 0) {
                names.put(key, trace.nameOf(key));
            } else {
                String pool = mounts.poolOf(key);
                pools.computeIfAbsent(pool, k -> new ConcurrencyTally()).add(e.getValue());
                poolSizes.merge(pool, 1, Integer::sum);
            }
        }
        Map<Integer, ThreadClassifier.Assignment> groups = classifier.assign(names, trace.pid());
        List<ThreadBox> threads = new ArrayList<>();
        for (Map.Entry<Integer, ConcurrencyTally> e : r.tallies().entrySet()) {
            ConcurrencyTally t = e.getValue();
            if (e.getKey() < 0) {
                continue; // a virtual thread: in its pool's box below
            }
            if (t.running() == 0) {
                continue; // only preempted, never ran: no box, but its wait is in no graph total either
            }
            ThreadClassifier.Assignment a = groups.get(e.getKey());
            threads.add(new ThreadBox(e.getKey(), names.get(e.getKey()), a.group(), a.kind(), t.share(),
                    Rational.of(t.running()), t.parallelism(), t.preemptedNanos()));
        }
        int poolKey = 0;
        for (Map.Entry<String, ConcurrencyTally> e : pools.entrySet()) {
            ConcurrencyTally t = e.getValue();
            poolKey--;
            if (t.running() == 0) {
                continue;
            }
            threads.add(new ThreadBox(poolKey, e.getKey(), classifier.groupOfVirtual(e.getKey()), ThreadKind.APP,
                    t.share(), Rational.of(t.running()), t.parallelism(), t.preemptedNanos(), poolSizes.get(e.getKey())));
        }
        threads.sort(Comparator.comparing((ThreadBox b) -> b.parallelism()).reversed()
                .thenComparing(Comparator.comparing(ThreadBox::share).reversed())
                .thenComparingInt(ThreadBox::osTid));
        List<GroupBox> groupBoxes = group(threads);
        boolean perf = trace.source() == SchedSource.PERF;
        String approximate = trace.approximateReason();
        if (mounts.lostIntervals() > 0) {
            String lost = mounts.lostIntervals() + " mount intervals of virtual threads were lost (the agent's buffer was "
                    + "full): their carriers keep that time";
            approximate = approximate == null ? lost : approximate + "; " + lost;
        }
        return new BottleGraph(from, to, trace.cpus(), trace.source().fileName(), approximate,
                threads, groupBoxes, r.busyNanos(), perf ? r.oversubscribedNanos() : 0,
                perf ? r.maxRunnable() : 0);
    }

    /** Du Bois et al. §2.1: a group's S = Σ S_j, A = Σ A_j, P = A / S. */
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
            int count = e.getValue().stream().mapToInt(t -> Math.max(1, t.virtualThreads())).sum();
            out.add(new GroupBox(e.getKey(), e.getValue().get(0).kind(), count, s, a,
                    s.isZero() ? Rational.ZERO : a.dividedBy(s), preempted));
        }
        out.sort(BOTTOM_FIRST);
        return out;
    }
}
