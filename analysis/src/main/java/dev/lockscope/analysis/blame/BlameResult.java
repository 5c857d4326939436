package dev.lockscope.analysis.blame;

import java.util.List;

/**
 * Owner blame for a whole recording.
 *
 * @param contentions every contention span, sorted by begin time, then waiter thread id, then lock
 * @param waits       conditional waits (not contention), in the same order
 */
public record BlameResult(List<Contention> contentions, List<WaitRecord> waits) {
    public BlameResult {
        contentions = List.copyOf(contentions);
        waits = List.copyOf(waits);
    }

    /** Sum of all contention, unknown owners included: the 100% of every tree. */
    public long totalNanos() {
        long sum = 0;
        for (Contention c : contentions) {
            sum += c.durationNanos();
        }
        return sum;
    }
}
