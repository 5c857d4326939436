package dev.lockscope.report.rules;

import dev.lockscope.core.LockMetrics;

import java.util.List;
import java.util.function.Predicate;

/**
 * A finding about the most-waited lock among some candidates whose waits were contention (idle waits
 * never lead, see {@link WaitClassifier}) (the contention table is ranked by
 * total wait), scored by its %real-time: the share of the wall time at least one thread waited for
 * it, so a lock that someone always waits for scores 100.
 *
 * @param candidates  which locks the rule is about
 * @param noneMessage what the rule says when no candidate was waited for
 */
record MostWaitedLockRule(String id, List<String> neededEvents, Predicate<LockMetrics> candidates, String noneMessage)
        implements Rule {
    @Override
    public RuleResult evaluate(RuleInput input) {
        for (LockMetrics lock : input.contention().locks()) {
            WaitClassifier.Verdict verdict = input.verdict(lock);
            if (candidates.test(lock) && lock.totalWaitNanos() > 0 && verdict.waitClass() == WaitClass.CONTENTION) {
                return RuleResult.of(id, lock.realTimeUtilPct(), LockSentence.of(lock, input.blameOf(lock))
                        + " Contention by rule `" + verdict.rule() + "`.", LockSentence.subject(lock));
            }
        }
        return RuleResult.of(id, 0, noneMessage, null);
    }
}
