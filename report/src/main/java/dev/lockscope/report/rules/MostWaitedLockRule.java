package dev.lockscope.report.rules;

import dev.lockscope.core.LockMetrics;

import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * A finding about the most-waited lock among some candidates whose waits were contention (idle waits
 * never lead, see {@link WaitClassifier}); the contention table is ranked by total wait. Scored by
 * its %real-time (the share of the wall time at least one thread waited for it, so a lock that
 * someone always waits for scores 100), weighted by its total wait against that of the most-waited
 * contended lock of any kind: a lock that one thread waits for all the time ranks below one that
 * many threads wait for most of the time, as the table ranks them.
 *
 * <p>A lock waited for under {@link #MIN_REAL_TIME_PCT} of the wall time is no finding: a thread that
 * waited a millisecond at startup for another's class initialisation (the JVM's init lock, an
 * {@code int[]}) is real contention, and not the first thing to show anyone (it led an idle pool's
 * findings on JDK 25, at 0.00% and 0.09%). The table still ranks it, and the rule names it.
 *
 * @param candidates  which locks the rule is about
 * @param noneMessage what the rule says when no candidate was waited for
 */
record MostWaitedLockRule(String id, List<String> neededEvents, Predicate<LockMetrics> candidates, String noneMessage)
        implements Rule {
    /** The least %real-time of a lock that is a finding. */
    static final double MIN_REAL_TIME_PCT = 0.5;

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
                if (lock.realTimeUtilPct() < MIN_REAL_TIME_PCT) {
                    return RuleResult.of(id, 0, noneMessage.replaceFirst("\\.$", "") + " for long enough to matter: "
                            + "the most waited-for, `" + input.label(lock) + "`, was waited for "
                            + String.format(Locale.ROOT, "%.2f ms", lock.totalWaitNanos() / 1e6)
                            + " in all.", null);
                }
                double weight = (double) lock.totalWaitNanos() / mostWaited;
                String remedy = LockSentence.remedy(lock, input.blameOf(lock));
                return RuleResult.of(id, lock.realTimeUtilPct() * weight, LockSentence.of(lock, input.label(lock), input.blameOf(lock), input.waitsOf(lock))
                        + " Contention by rule `" + verdict.rule() + "`." + (remedy == null ? "" : " " + remedy), input.label(lock));
            }
        }
        return RuleResult.of(id, 0, noneMessage, null);
    }
}
