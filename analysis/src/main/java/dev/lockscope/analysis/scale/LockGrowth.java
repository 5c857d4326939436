package dev.lockscope.analysis.scale;

import dev.lockscope.core.LockKind;

import java.util.List;

/**
 * One lock followed across the sweep (identified by {@link ContendedLock#key()}).
 *
 * @param layer           the layer of the code that takes and holds the lock (its {@code site})
 * @param waiterMethod    the waiters' innermost application or middleware frame ("in `Cache.get`")
 * @param ownerFrames     the holders' call chain at the point with the most wait
 * @param ownerMethod     the holders' innermost application or middleware frame, or their top frame
 * @param ownerLayer      layer of {@code ownerMethod}
 * @param waiterThreads   names of threads that waited, at the point with the most wait
 * @param threadTimeNanos wait thread-time at each point of {@link SweepResult#points()} (mean over runs; 0 if absent)
 * @param shares          the same as a fraction of the point's thread time (threads × run length)
 * @param shareBefore     share at the point before the knee (or the first point)
 * @param shareAfter      share at the last point of the series
 * @param growth          shareAfter − shareBefore: the ranking key
 */
public record LockGrowth(LockKind kind, String className, String site, Layer layer, String waiterMethod,
                         List<String> waiterFrames, List<String> ownerFrames, String ownerMethod, Layer ownerLayer,
                         String ownerSource, List<String> waiterThreads, List<Long> threadTimeNanos, List<Double> shares,
                         double shareBefore, double shareAfter, double growth) {
    public LockGrowth {
        waiterFrames = List.copyOf(waiterFrames);
        ownerFrames = List.copyOf(ownerFrames);
        waiterThreads = List.copyOf(waiterThreads);
        threadTimeNanos = List.copyOf(threadTimeNanos);
        shares = List.copyOf(shares);
    }
}
