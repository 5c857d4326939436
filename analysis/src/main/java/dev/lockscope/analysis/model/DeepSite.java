package dev.lockscope.analysis.model;

/**
 * {@code lockscope.DeepSite}: deep mode's totals of one instrumented site so far, over every object locked there.
 *
 * @param site {@code package.Class.method:line}
 * @param kind {@code monitorenter}, {@code synchronized-method}, {@code lock}, {@code unlock}, {@code wait} or {@code notify}
 */
public record DeepSite(long timeNanos, String site, String kind, DeepCounts counts) {
}
