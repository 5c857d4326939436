package dev.lockscope.analysis.scale;

import java.util.List;
import java.util.Optional;

/**
 * Guerin et al.'s top-down search (§III) applied to one sweep: the growing locks of each layer,
 * application first. The first layer with a growing lock is where to act; the layers below are
 * examined "with the hypothesis that each other layer … is scalable", because a bottleneck above
 * may hide them until it is fixed.
 */
public record LayerWalk(List<Step> steps) {
    public LayerWalk {
        steps = List.copyOf(steps);
    }

    /** One layer and its growing locks, largest growth first (possibly none). */
    public record Step(Layer layer, List<LockGrowth> locks) {
        public Step {
            locks = List.copyOf(locks);
        }
    }

    /** The top-most layer with a growing lock. */
    public Optional<Step> firstBottleneck() {
        return steps.stream().filter(s -> !s.locks().isEmpty()).findFirst();
    }
}
