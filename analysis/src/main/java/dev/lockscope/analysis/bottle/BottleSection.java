package dev.lockscope.analysis.bottle;

import dev.lockscope.sched.SchedTrace;

import java.util.List;
import java.util.Map;

/**
 * The bottle graphs of one run, as the report model holds them and {@code lockscope bottle} renders them: the whole
 * run's, one per time slice (only the whole when not sliced), and the tall narrow boxes of the whole explained by what
 * the other threads were doing meanwhile (empty without the recording's waits).
 */
public record BottleSection(BottleGraph whole, List<BottleGraph> slices, List<NeckExplainer.Neck> necks) {
    public BottleSection {
        slices = List.copyOf(slices);
        necks = List.copyOf(necks);
    }

    /**
     * What to draw beyond the whole run's graph, and how to group threads.
     *
     * @param sliceNanos one graph per slice this long, or 0 for the whole run only
     * @param necks      explain the neck from the recording's waits (it keeps every wait interval: asked for by
     *                   {@code lockscope bottle}, not by {@code report})
     */
    public record Request(ThreadClassifier classifier, long sliceNanos, boolean necks) {
        /** The report's: the whole run, the built-in groups, no neck explanation. */
        public static final Request REPORT = new Request(ThreadClassifier.defaults(), 0, false);
    }

    /**
     * The section of {@code trace} (Java names merged already) as {@code request} asks.
     *
     * @param steal  each thread's share of the machine's steal time by OS thread id (empty when not sampled)
     * @param waits  the recording's waits, or null without them
     */
    public static BottleSection of(SchedTrace trace, Request request, VirtualThreadMounts mounts, Map<Integer, Long> steal,
                                   JfrWaits waits) {
        BottleGraph whole = BottleGraphs.whole(trace, request.classifier(), mounts);
        if (!steal.isEmpty()) {
            whole = whole.withSteal(steal); // the recording's steal covers the whole run only
        }
        List<BottleGraph> slices = request.sliceNanos() <= 0 ? List.of(whole)
                : BottleGraphs.slices(trace, request.classifier(), request.sliceNanos(), mounts);
        List<NeckExplainer.Neck> necks = waits == null || trace.epochOffsetNanos() == SchedTrace.UNKNOWN_OFFSET ? List.of()
                : NeckExplainer.explain(trace, whole, waits.intervals(trace.epochOffsetNanos()));
        return new BottleSection(whole, slices, necks);
    }
}
