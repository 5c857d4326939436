package dev.lockscope.analysis.model;

import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockSites;

import java.util.List;

/**
 * {@code lockscope.LockSummary}: the agent's exact tally of the J9 park-contention report of one blocker, written at every chunk
 * end; the last one of a blocker holds the totals of the whole run, including the parks the recording
 * threshold left out. Or, with {@code collectedObjects} > 0, the summed final tallies of that many
 * blockers of one lock site that the GC collected (the agent dropped their records).
 *
 * @param timeNanos         when it was written
 * @param collectedObjects  0 for one blocker; else the number of collected blockers summed (blockerHash 0)
 * @param siteRealTimeNanos the real-time of the blocker's lock site as the agent measured it (the union of the
 *                          waits of all its objects, short ones and collected ones included); 0 if not measured
 * @param batch             the agent's write of summaries it belongs to (1, 2, ...; 0 from agents before
 *                          batches): the latest batch holds every blocker then live and every collected one
 */
public record LockSummary(long timeNanos, String blockerClass, int blockerHash, long collectionThreshold,
                          boolean collecting, long timesParked, int parkedNow, int peakParked, long threadTimeNanos,
                          long realTimeNanos, long lifeTimeNanos, String firstThread, List<String> firstFrames,
                          int collectedObjects, long siteRealTimeNanos, long batch) {

    /** Whether this sums collected blockers of a site rather than tallying one blocker. */
    public boolean isCollected() {
        return collectedObjects > 0;
    }

    /** The key of the lock site's row this summary counts in ({@link LockSites#keyOf}). */
    public String siteKey() {
        return LockSites.keyOf(LockKind.PARK, blockerClass, LockSites.siteOf(firstFrames));
    }

    /** Whether this was written after {@code other}: by batch, then by time. */
    public boolean isLaterThan(LockSummary other) {
        return batch != other.batch ? batch > other.batch : timeNanos >= other.timeNanos;
    }
}
