package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import java.util.List;

/**
 * Everything a blame report shows, computed once: the tree over the requested aspects, the blame
 * rows, each lock's owner-chain classes, the conditional waits, and the hold times measured between
 * each lock's hand-offs (the second hold-time estimate, beside the table's).
 */
public record BlameSummary(long totalNanos, long contentionCount, List<Aspect> groupBy, boolean raw, BlameNode tree,
                           List<BlameRow> rows, List<LockChainShare> chainShares, List<WaitRow> waits,
                           List<HandoffHold> handoffHolds) {
    public BlameSummary {
        groupBy = List.copyOf(groupBy);
        rows = List.copyOf(rows);
        chainShares = List.copyOf(chainShares);
        waits = List.copyOf(waits);
        handoffHolds = List.copyOf(handoffHolds);
    }

    /** Without hold times from hand-offs. */
    public BlameSummary(long totalNanos, long contentionCount, List<Aspect> groupBy, boolean raw, BlameNode tree,
                        List<BlameRow> rows, List<LockChainShare> chainShares, List<WaitRow> waits) {
        this(totalNanos, contentionCount, groupBy, raw, tree, rows, chainShares, waits, List.of());
    }

    /** The hold time measured between the lock's hand-offs, or null when none was measured. */
    public HandoffHold handoffHold(LockId lock) {
        for (HandoffHold h : handoffHolds) {
            if (h.lock().equals(lock)) {
                return h;
            }
        }
        return null;
    }

    public static BlameSummary of(BlameResult result, List<Aspect> groupBy, boolean raw) {
        ChainView view = ChainView.of(raw);
        return new BlameSummary(result.totalNanos(), result.contentionCount(), groupBy, raw,
                BlameTree.build(result.contentions(), groupBy, view), BlameRows.of(result.contentions(), view),
                LockChainShare.of(result.contentions()), WaitRow.of(result.waits(), view), result.handoffHolds());
    }
}
