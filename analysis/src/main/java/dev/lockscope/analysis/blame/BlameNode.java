package dev.lockscope.analysis.blame;

import java.util.List;

/**
 * A node of the aggregation tree.
 *
 * @param aspect     the aspect its key belongs to; null for the root
 * @param key        the group, e.g. a lock or a method; "all" for the root
 * @param totalNanos contention in this group; equals the sum over the children
 * @param count      contention records in this group; equals the sum over the children
 * @param share      totalNanos / the recording's total contention (0 when there is none)
 * @param children   ordered by total descending, then key
 */
public record BlameNode(Aspect aspect, String key, long totalNanos, long count, double share, List<BlameNode> children) {
    public BlameNode {
        children = List.copyOf(children);
    }
}
