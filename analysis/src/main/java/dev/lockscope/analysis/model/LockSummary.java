package dev.lockscope.analysis.model;

import java.util.List;

/**
 * {@code lockscope.LockSummary}: the agent's exact seed 000 tally of one blocker, written at every chunk
 * end; the last one of a blocker holds the totals of the whole run, including the parks the recording
 * threshold left out.
 *
 * @param timeNanos when it was written
 */
public record LockSummary(long timeNanos, String blockerClass, int blockerHash, long collectionThreshold,
                          boolean collecting, long timesParked, int parkedNow, int peakParked, long threadTimeNanos,
                          long realTimeNanos, long lifeTimeNanos, String firstThread, List<String> firstFrames) {
}
