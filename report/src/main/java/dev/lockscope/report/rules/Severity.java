package dev.lockscope.report.rules;

/**
 * How much a rule's finding matters, from its score (the scale of JDK Mission Control's rules:
 * below 25 OK, from 75 a warning).
 */
public enum Severity {
    /** The rule could not be evaluated: events it needs are missing from the recording. */
    NA,
    OK,
    INFO,
    WARNING;

    public static Severity of(double score) {
        return score >= 75 ? WARNING : score >= 25 ? INFO : OK;
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
