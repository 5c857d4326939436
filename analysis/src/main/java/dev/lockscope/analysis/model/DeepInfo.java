package dev.lockscope.analysis.model;

/**
 * {@code lockscope.DeepInfo}: what deep mode selected and instrumented, and what its probes cost.
 *
 * @param selection          the include patterns, then {@code !} and the exclude patterns
 * @param untracked          acquisitions of objects beyond the agent's record limit (counted at their site only)
 * @param probeNanos         measured at start: time the probes add to one uncontended acquisition and release; 0 if not measured
 * @param holdInflationNanos measured at start: the hold the probes measure for a section that only increments a counter
 */
public record DeepInfo(long timeNanos, String selection, long classes, long sites, long untracked, long probeNanos,
                       long holdInflationNanos, long probeFailures) {
}
