package dev.lockscope.report.rules;

import dev.lockscope.core.LockMetrics;

import java.util.List;
import java.util.function.Predicate;

/**
 * A finding about the most-waited lock among some candidates whose waits were contention (idle waits
 * never lead, see {@link WaitClassifier}); the contention table is ranked by total wait. Scored by
 * its %real-time (the share of the wall time at least one thread waited for it, so a lock that
 * someone always waits for scores 100), weighted by its total wait against that of the most-waited
 * contended lock of any kind: a lock that one thread waits for all the time ranks below one that
 * many threads wait for most of the time, as the table ranks them.
 *
 * @param candidates  which locks the rule is about
 * @param noneMessage what the rule says when no candidate was waited for
 */
record MostWaitedLockRule(String id, List<String> neededEvents, Predicate<LockMetrics> candidates, String noneMessage)
        implements Rule {
    @Override
    public RuleResult evaluate(RuleInput input) {
        long mostWaited = 0;
        for (LockMetrics lock : input.contention().rows()) {
            if (input.verdict(lock).waitClass() == WaitClass.CONTENTION) {
                mostWaited = Math.max(mostWaited, lock.totalWaitNanos());
            }
        }
        for (LockMetrics lock : input.contention().rows()) {
            WaitClassifier.Verdict verdict = input.verdict(lock);
            if (candidates.test(lock) && lock.totalWaitNanos() > 0 && verdict.waitClass() == WaitClass.CONTENTION) {
                double weight = (double) lock.totalWaitNanos() / mostWaited;
                return RuleResult.of(id, lock.realTimeUtilPct() * weight, LockSentence.of(lock, input.blameOf(lock))
                        + " Contention by rule `" + verdict.rule() + "`.", LockSentence.subject(lock));
            }
        }
        return RuleResult.of(id, 0, noneMessage, null);
    }
}
