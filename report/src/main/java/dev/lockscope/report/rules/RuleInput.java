package dev.lockscope.report.rules;

import dev.lockscope.analysis.vthreads.PinningAnalysis;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.blame.LockId;
import dev.lockscope.core.LockMetrics;

import java.util.List;

/** What rules read: the analyses' results of one recording, and how its waits were classified. */
public record RuleInput(LockContention contention, BlameSummary blame, WaitClasses waits,
                        PinningAnalysis.Result virtualThreads) {
    public RuleInput(LockContention contention, BlameSummary blame, WaitClasses waits) {
        this(contention, blame, waits, null);
    }

    public RuleInput(LockContention contention, BlameSummary blame) {
        this(contention, blame, WaitClasses.of(contention, blame, WaitClassifier.DEFAULTS));
    }

    /** The blame rows of one lock of the contention table. */
    public List<BlameRow> blameOf(LockMetrics lock) {
        return blame.rows().stream().filter(r -> sameLock(contention.rowOf(r.lock()), lock)).toList();
    }

    /** Whether the lock's waits were contention, idle or other, and by which rule. */
    public WaitClassifier.Verdict verdict(LockMetrics lock) {
        return waits.verdictOf(lock);
    }

    private static boolean sameLock(LockId id, LockMetrics lock) {
        return id.kind() == lock.kind() && id.lockClass().equals(lock.className()) && id.id().equals(lock.identityHash());
    }
}
