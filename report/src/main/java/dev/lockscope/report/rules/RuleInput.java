package dev.lockscope.report.rules;

import dev.lockscope.analysis.vthreads.PinningAnalysis;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.WaitRow;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.core.LockId;
import dev.lockscope.core.LockLabels;
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

    /** The name of one row of the contention table, as the table prints it ({@link LockLabels}). */
    public String label(LockMetrics lock) {
        String label = LockLabels.of(contention.rows()).get(lock);
        return label != null ? label : LockLabels.of(lock);
    }

    /** The blame rows of one lock of the contention table. */
    public List<BlameRow> blameOf(LockMetrics lock) {
        LockId id = lock.id();
        return blame.rows().stream().filter(r -> contention.rowOf(r.lock()).equals(id)).toList();
    }

    /** The conditional waits on one lock of the contention table ({@code Condition.await}, {@code Object.wait}). */
    public List<WaitRow> waitsOf(LockMetrics lock) {
        LockId id = lock.id();
        return blame.waits().stream().filter(w -> contention.rowOf(w.lock()).equals(id)).toList();
    }

    /** Whether the lock's waits were contention, idle or other, and by which rule. */
    public WaitClassifier.Verdict verdict(LockMetrics lock) {
        return waits.verdictOf(lock);
    }

}
