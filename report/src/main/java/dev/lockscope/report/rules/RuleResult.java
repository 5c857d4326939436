package dev.lockscope.report.rules;

import java.util.List;

/**
 * What one rule found in one recording.
 *
 * @param rule          the rule's id, e.g. {@code monitor-contention}
 * @param severity      from the score; {@link Severity#NA} when the rule could not be evaluated
 * @param score         0 (nothing to see) to 100 (the program is dominated by it); 0 when NA
 * @param message       one sentence; names in {@code `backticks`} (the page sets them as code, text drops the marks)
 * @param subject       what the finding is about (a lock's {@code class@id}), or null: two rules that
 *                      find the same subject are shown once, the higher score first
 * @param missingEvents for NA: the JFR event types the rule needs and the recording lacks
 */
public record RuleResult(String rule, Severity severity, double score, String message, String subject,
                         List<String> missingEvents) {
    public RuleResult {
        missingEvents = List.copyOf(missingEvents);
    }

    public static RuleResult of(String rule, double score, String message, String subject) {
        double bounded = Math.max(0, Math.min(100, score));
        return new RuleResult(rule, Severity.of(bounded), bounded, message, subject, List.of());
    }

    public static RuleResult notEvaluated(String rule, List<String> missingEvents) {
        return new RuleResult(rule, Severity.NA, 0, "Not evaluated: the recording has no "
                + String.join(" or ", missingEvents) + " events.", null, missingEvents);
    }
}
