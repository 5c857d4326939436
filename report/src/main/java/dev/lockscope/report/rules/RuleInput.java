package dev.lockscope.report.rules;

import dev.lockscope.analysis.vthreads.PinningAnalysis;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.core.LockMetrics;

import java.util.List;

/** What rules read: the analyses' results of one recording. */
public record RuleInput(LockContention contention, BlameSummary blame, PinningAnalysis.Result virtualThreads) {
    /** The input of a recording without virtual-thread pinning data. */
    public RuleInput(LockContention contention, BlameSummary blame) {
        this(contention, blame, null);
    }

    /** The blame rows of one lock of the contention table. */
    public List<BlameRow> blameOf(LockMetrics lock) {
        return blame.rows().stream().filter(r -> r.lock().kind() == lock.kind()
                && r.lock().lockClass().equals(lock.className()) && r.lock().id().equals(lock.identityHash())).toList();
    }
}
