package dev.lockscope.report.rules;

import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.blame.WaitRow;
import dev.lockscope.core.LockMetrics;

import java.util.List;

/** What rules read: the analyses' results of one recording, and how its waits are classified. */
public record RuleInput(LockContention contention, BlameSummary blame, WaitClassifier classifier) {
    public RuleInput(LockContention contention, BlameSummary blame) {
        this(contention, blame, WaitClassifier.DEFAULTS);
    }

    /** The blame rows of one lock of the contention table. */
    public List<BlameRow> blameOf(LockMetrics lock) {
        return blame.rows().stream().filter(r -> r.lock().kind() == lock.kind()
                && r.lock().lockClass().equals(lock.className()) && r.lock().id().equals(lock.identityHash())).toList();
    }

    /** The conditional waits ({@code Condition.await}) on one lock of the contention table. */
    public List<WaitRow> waitsOf(LockMetrics lock) {
        return blame.waits().stream().filter(w -> w.lock().kind() == lock.kind()
                && w.lock().lockClass().equals(lock.className()) && w.lock().id().equals(lock.identityHash())).toList();
    }

    /** Whether the lock's waits were contention, idle or other, and by which rule. */
    public WaitClassifier.Verdict verdict(LockMetrics lock) {
        return classifier.classify(lock, blameOf(lock), waitsOf(lock));
    }
}
