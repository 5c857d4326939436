package dev.lockscope.agent.boot;

import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockSites;
import dev.lockscope.core.ParkTally;

import java.util.Arrays;

/**
 * The final tallies of one lock site's blockers that the GC collected and the registry dropped, summed
 * as {@link dev.lockscope.core.LockSites} sums a site's objects: a program that takes a fresh lock per
 * request (the {@code lock-table} demo, a per-request future) drops thousands, and the table at exit
 * still counts every park on them. Immutable: a site swaps in the next one by compare-and-set
 * ({@link SiteUnion#addCollected}), so a snapshot never reads a half-added blocker.
 *
 * @param objects      blockers dropped
 * @param firstThread  thread of the first park on the first blocker dropped
 * @param firstFrames  its first stack (shared through {@link FirstStacks})
 * @param lives        the sum of the blockers' lives (§3.7.14's Time(n) − Time(1)), as a site's
 */
public record CollectedTally(String className, int objects, long collectionThreshold, long timesParked, int peakParked,
                             long threadTimeNanos, long realTimeNanos, long firstTime, long lives,
                             String firstThread, String[] firstFrames) {

    /** The first dropped blocker of a site. */
    static CollectedTally of(BlockerRecord r, ParkTally t) {
        return new CollectedTally(r.className, 1, t.collectionThreshold, t.timesParked, t.peakParked, t.threadTimeNanos,
                t.realTimeNanos, t.firstTime, t.lifeTimeNanos(), r.firstThread(), r.sharedFirstFrames());
    }

    /** These and one more dropped blocker; the first thread and stack stay those of the earliest. */
    CollectedTally plus(BlockerRecord r, ParkTally t) {
        boolean earlier = t.firstTime < firstTime;
        return new CollectedTally(className, objects + 1, collectionThreshold, timesParked + t.timesParked,
                Math.max(peakParked, t.peakParked), threadTimeNanos + t.threadTimeNanos, realTimeNanos + t.realTimeNanos,
                Math.min(firstTime, t.firstTime), lives + t.lifeTimeNanos(),
                earlier ? r.firstThread() : firstThread, earlier ? r.sharedFirstFrames() : firstFrames);
    }

    /** The lock site, {@code at Frame.method:line} ({@link LockSites#siteOf}): that of every blocker summed here. */
    public String site() {
        return LockSites.siteOf(Arrays.asList(firstFrames));
    }

    /** The key of the site's row in every table ({@link LockSites#keyOf}). */
    public String siteKey() {
        return LockSites.keyOf(LockKind.PARK, className, site());
    }

    /** As one tally: none parked now, its life the sum of the blockers' lives (Time(1) the earliest). */
    public ParkTally tally() {
        return ParkTally.of(collectionThreshold, timesParked, 0, peakParked, threadTimeNanos, realTimeNanos, firstTime,
                firstTime + lives, true);
    }
}
