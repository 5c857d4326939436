package dev.lockscope.report.rules;

import java.util.List;

/**
 * One finding about a recording, modelled on JDK Mission Control's rules ({@code IRule2},
 * {@code JavaBlockingRule}): an id, the events it needs, and an evaluation that gives a score
 * (0-100), a severity and a sentence. Adding a finding is adding one small class implementing this to
 * {@link Rules#ALL}. A rule may find several things ({@link LockRowsRule}: one per lock row).
 */
public interface Rule {
    /** Stable id, e.g. {@code lock-contention}: JSON consumers select findings by it (or by their results' ids). */
    String id();

    /** JFR event types the rule reads; it is not evaluated when the recording has none of them. */
    List<String> neededEvents();

    /** Called only when at least one of {@link #neededEvents()} occurs in the recording. */
    RuleResult evaluate(RuleInput input);

    /**
     * Every result of this rule ({@code seen}: which event types the recording had); the one of {@link #evaluate}
     * unless the rule finds several things. Called only when at least one of {@link #neededEvents()} occurs.
     */
    default List<RuleResult> results(RuleInput input, java.util.function.Predicate<String> seen) {
        return List.of(evaluate(input));
    }
}
