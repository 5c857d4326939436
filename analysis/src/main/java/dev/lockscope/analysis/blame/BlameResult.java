package dev.lockscope.analysis.blame;

import java.util.List;

/**
 * Owner blame for a whole recording, summed by key (see {@link Contention}).
 *
 * @param contentions contention by lock, waiter, chain and cause, earliest first
 * @param waits       conditional waits (not contention), in the same order
 * @param handoffHolds hold times measured between the locks' hand-offs, in lock order
 */
public record BlameResult(List<Contention> contentions, List<WaitRecord> waits, List<HandoffHold> handoffHolds) {
    public BlameResult {
        contentions = List.copyOf(contentions);
        waits = List.copyOf(waits);
        handoffHolds = List.copyOf(handoffHolds);
    }

    public BlameResult(List<Contention> contentions, List<WaitRecord> waits) {
        this(contentions, waits, List.of());
    }

    /** This result with the hold times measured between hand-offs. */
    public BlameResult withHandoffHolds(List<HandoffHold> holds) {
        return new BlameResult(contentions, waits, holds);
    }

    /** Sum of all contention, unknown owners included: the 100% of every tree. */
    public long totalNanos() {
        long sum = 0;
        for (Contention c : contentions) {
            sum += c.nanos();
        }
        return sum;
    }

    /** Spans of contention: a wait split at hand-offs counts once per owner. */
    public long contentionCount() {
        long n = 0;
        for (Contention c : contentions) {
            n += c.count();
        }
        return n;
    }
}
