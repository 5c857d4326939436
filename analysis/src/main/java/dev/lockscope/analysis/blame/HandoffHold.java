package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
/**
 * A lock's holds measured between hand-offs ({@link HandoffHolds}): the second hold-time estimate,
 * beside the J9 park-contention report's.
 *
 * @param holds how many holds were measured
 * @param nanos their total length
 */
public record HandoffHold(LockId lock, long holds, long nanos) {
    /**
     * The holds of several locks summed per {@code row} of their lock (a lock site of many objects, or
     * the same site in several recordings), in order of first appearance.
     */
    public static java.util.List<HandoffHold> sumBy(java.util.List<HandoffHold> holds,
                                                     java.util.function.UnaryOperator<LockId> row) {
        java.util.Map<LockId, long[]> sums = new java.util.LinkedHashMap<>();
        for (HandoffHold h : holds) {
            long[] sum = sums.computeIfAbsent(row.apply(h.lock()), k -> new long[2]);
            sum[0] += h.holds();
            sum[1] += h.nanos();
        }
        java.util.List<HandoffHold> out = new java.util.ArrayList<>(sums.size());
        sums.forEach((lock, sum) -> out.add(new HandoffHold(lock, sum[0], sum[1])));
        return out;
    }

    /** Average hold time in nanoseconds. */
    public double avgNanos() {
        return holds == 0 ? Double.NaN : (double) nanos / holds;
    }
}
