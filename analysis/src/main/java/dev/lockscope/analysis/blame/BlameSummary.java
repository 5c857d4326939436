package dev.lockscope.analysis.blame;

import java.util.List;

/**
 * Everything a blame report shows, computed once: the tree over the requested aspects, the blame
 * rows, each lock's owner-chain classes and the conditional waits.
 */
public record BlameSummary(long totalNanos, long contentionCount, List<Aspect> groupBy, boolean raw, BlameNode tree,
                           List<BlameRow> rows, List<LockChainShare> chainShares, List<WaitRow> waits) {
    public BlameSummary {
        groupBy = List.copyOf(groupBy);
        rows = List.copyOf(rows);
        chainShares = List.copyOf(chainShares);
        waits = List.copyOf(waits);
    }

    public static BlameSummary of(BlameResult result, List<Aspect> groupBy, boolean raw) {
        ChainView view = ChainView.of(raw);
        return new BlameSummary(result.totalNanos(), result.contentionCount(), groupBy, raw,
                BlameTree.build(result.contentions(), groupBy, view), BlameRows.of(result.contentions(), view),
                LockChainShare.of(result.contentions()), WaitRow.of(result.waits(), view));
    }
}
