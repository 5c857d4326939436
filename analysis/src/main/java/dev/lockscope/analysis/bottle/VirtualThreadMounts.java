package dev.lockscope.analysis.bottle;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Which virtual thread ran on which carrier when, on the scheduling data's time line (System.nanoTime),
 * for bottle graphs: while a carrier ran a virtual thread, its running (and preempted) time is the
 * virtual thread's, not its own ({@link BottleCalculator}).
 *
 * @param mounts        mount intervals, in order of their start
 * @param pools         each virtual thread's pool (by its key, a negative number): the executor or factory that
 *                      made it, as {@code --group-by waiter-pool} names it ({@code virtual: app.Handler.run},
 *                      {@code vt-worker-* (virtual)})
 * @param lostIntervals mount intervals the agent could not record (its buffer was full): the split is then short
 *                      of them, and the graph says so
 */
public record VirtualThreadMounts(List<Mount> mounts, Map<Integer, String> pools, long lostIntervals) {
    public static final VirtualThreadMounts NONE = new VirtualThreadMounts(List.of(), Map.of(), 0);

    /** The carrier with OS thread id {@code carrierTid} ran virtual thread {@code virtualKey} in [fromNanos, toNanos). */
    public record Mount(int carrierTid, int virtualKey, long fromNanos, long toNanos) {
    }

    public VirtualThreadMounts {
        List<Mount> sorted = new ArrayList<>(mounts);
        sorted.sort(Comparator.comparingLong(Mount::fromNanos));
        mounts = List.copyOf(sorted);
        pools = Map.copyOf(pools);
    }

    public boolean isEmpty() {
        return mounts.isEmpty();
    }

    /** The pool of the virtual thread with key {@code virtualKey}. */
    public String poolOf(int virtualKey) {
        return pools.getOrDefault(virtualKey, "virtual");
    }
}
