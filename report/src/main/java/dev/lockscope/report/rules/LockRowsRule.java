package dev.lockscope.report.rules;

import dev.lockscope.core.EventNames;
import dev.lockscope.core.LockFindings;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One finding per row of the table whose waits were contention (idle waits never lead, see {@link WaitClassifier}),
 * scored by the share of the wall time its lock cost: its %real-time, the share of the run at least one thread
 * waited for it (a lock someone always waits for scores 100). Each result's rule names the lock's kind:
 * {@code park-contention} (a {@code java.util.concurrent} blocker), {@code monitor-contention} (a monitor's entry),
 * {@code wait-contention} (a lock built on {@code Object.wait}). So a second lock as costly as the first is a finding
 * too (commons-pool2's deque lock behind its condition), where one finding per kind left it out.
 *
 * <p>A row waited for under {@link dev.lockscope.core.LockTable#FINDING_PCT} of the wall time is no finding: a thread that waited a
 * millisecond at startup for another's class initialisation is real contention, and not the first thing to show
 * anyone. Nor is a row without a stack (no site): nobody could tell which code to change. When no row is a finding,
 * the one result says why ({@code lock-contention}, score 0): no contention at all, or the row with the largest share
 * of wall time and its wait. A kind whose events the recording lacks is {@link RuleResult#notEvaluated not evaluated}.
 */
final class LockRowsRule implements Rule {
    static final String ID = "lock-contention";

    /** Each kind's rule id and the events its rows come from. */
    private static final Map<LockKind, List<String>> EVENTS = Map.of(
            LockKind.PARK, List.of(EventNames.PARK, EventNames.LOCK_SUMMARY),
            LockKind.MONITOR, List.of(EventNames.MONITOR_ENTER),
            LockKind.WAIT, List.of(EventNames.MONITOR_WAIT));

    static String ruleOf(LockKind kind) {
        return kind.label() + "-contention";
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<String> neededEvents() {
        return List.of(EventNames.PARK, EventNames.LOCK_SUMMARY, EventNames.MONITOR_ENTER, EventNames.MONITOR_WAIT);
    }

    @Override
    public RuleResult evaluate(RuleInput input) {
        return results(input, kind -> true).get(0);
    }

    @Override
    public List<RuleResult> results(RuleInput input, java.util.function.Predicate<String> seen) {
        List<RuleResult> out = new ArrayList<>();
        List<LockMetrics> contention = new ArrayList<>();
        for (LockMetrics lock : input.contention().rows()) {
            if (input.verdict(lock).waitClass() == WaitClass.CONTENTION) {
                contention.add(lock);
            }
        }
        // the rows that are findings, as the agent's exit table picks them from its own rows (LockFindings)
        for (LockMetrics lock : LockFindings.of(contention)) {
            String remedy = LockSentence.remedy(lock, input.blameOf(lock));
            out.add(RuleResult.of(ruleOf(lock.kind()), lock.realTimeUtilPct(),
                    LockSentence.of(lock, input.label(lock), input.blameOf(lock), input.waitsOf(lock))
                            + " Contention by rule `" + input.verdict(lock).rule() + "`." + (remedy == null ? "" : " " + remedy),
                    input.label(lock)));
        }
        if (out.isEmpty()) {
            Map<LockMetrics, String> labels = new java.util.IdentityHashMap<>();
            contention.forEach(lock -> labels.put(lock, input.label(lock)));
            out.add(RuleResult.of(ID, 0, LockFindings.none(contention, labels), null));
        }
        for (LockKind kind : LockKind.values()) {
            List<String> events = EVENTS.get(kind);
            if (events.stream().noneMatch(seen)) {
                out.add(RuleResult.notEvaluated(ruleOf(kind), events));
            }
        }
        return out;
    }
}
