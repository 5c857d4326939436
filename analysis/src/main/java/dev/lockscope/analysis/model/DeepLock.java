package dev.lockscope.analysis.model;

/**
 * {@code lockscope.DeepLock}: deep mode's totals of one lock object so far (the last one of an object
 * holds the run's), with the counts behind Kawachiya's thread-locality analyses.
 *
 * @param kind                    {@code monitor} or {@code juc}
 * @param firstLocker             the thread that locked it first
 * @param firstSite               where, {@code package.Class.method:line}; null when unknown
 * @param lockedByOthers          a thread other than the first locker locked it too
 * @param firstRunAll             acquisitions in the first repetition (the first locker's leading run), recursive ones included
 * @param firstRunNonRecursive    the same without recursive ones
 * @param firstLockerNonRecursive outermost acquisitions by the first locker over the whole run
 * @param fatRuns                 runs of consecutive outermost acquisitions that were slow (contention episodes)
 * @param flatRuns                runs of consecutive outermost acquisitions that were not
 */
public record DeepLock(long timeNanos, String lockClass, int lockHash, String kind, DeepCounts counts, String firstLocker,
                       String firstSite, boolean lockedByOthers, long firstRunAll, long firstRunNonRecursive,
                       long firstLockerNonRecursive, long fatRuns, long flatRuns) {
    /**
     * Mean flat-run length over mean fat-run length, in acquisitions (Kawachiya §4.4's contention
     * transience: flat sections much longer than fat ones); infinite for a lock never acquired slow.
     */
    public double flatToFatRatio() {
        long slow = counts.slow();
        if (slow == 0 || fatRuns == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double flat = flatRuns == 0 ? 0 : (double) (counts.nonRecursive() - slow) / flatRuns;
        return flat / ((double) slow / fatRuns);
    }

    /** Share of acquisitions in the first repetition (thread locality), 0..1. */
    public double firstRepetitionShare() {
        return counts.gets() == 0 ? 0 : (double) firstRunAll / counts.gets();
    }
}
