package dev.lockscope.report.rules;

import java.util.List;

/**
 * One finding about a recording, modelled on JDK Mission Control's rules ({@code IRule2},
 * {@code JavaBlockingRule}): an id, the events it needs, and an evaluation that gives a score
 * (0-100), a severity and a sentence. Adding a finding is adding one small class implementing this to
 * {@link Rules#ALL} (or one more {@link MostWaitedLockRule} there).
 */
public interface Rule {
    /** Stable id, e.g. {@code lock-bottleneck}: JSON consumers select findings by it. */
    String id();

    /** JFR event types the rule reads; it is not evaluated when the recording has none of them. */
    List<String> neededEvents();

    /** Called only when at least one of {@link #neededEvents()} occurs in the recording. */
    RuleResult evaluate(RuleInput input);
}
