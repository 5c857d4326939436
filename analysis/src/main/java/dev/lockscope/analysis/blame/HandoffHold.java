package dev.lockscope.analysis.blame;

/**
 * A lock's holds measured between hand-offs ({@link HandoffHolds}): the second hold-time estimate,
 * beside seed 000's.
 *
 * @param holds how many holds were measured
 * @param nanos their total length
 */
public record HandoffHold(LockId lock, long holds, long nanos) {
    /** Average hold time in nanoseconds. */
    public double avgNanos() {
        return holds == 0 ? Double.NaN : (double) nanos / holds;
    }
}
