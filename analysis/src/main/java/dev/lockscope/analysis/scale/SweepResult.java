package dev.lockscope.analysis.scale;

import java.util.List;
import java.util.Optional;

/**
 * Everything the sweep found.
 *
 * @param points    every point, ordered by CPUs then threads
 * @param knee      the first point of the main series whose efficiency falls below the threshold
 * @param peak      the point with the highest throughput
 * @param before    the point the lock growth is measured from (the last one before the knee, or the first)
 * @param after     the point it is measured to (the last point of the main series)
 * @param mainCpus  the CPU count of the main series (the largest asked), whose knee is reported
 * @param locks     every lock seen, ranked by growth of its share of thread time across the knee
 */
public record SweepResult(List<SweepPoint> points, double threshold, int mainCpus, Optional<SweepPoint> knee,
                          Optional<SweepPoint> peak, Optional<SweepPoint> before, Optional<SweepPoint> after,
                          List<LockGrowth> locks, LayerWalk walk) {
    public SweepResult {
        points = List.copyOf(points);
        locks = List.copyOf(locks);
    }
}
