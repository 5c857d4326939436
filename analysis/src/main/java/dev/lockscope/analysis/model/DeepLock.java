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
 * @param sections                its fat and flat sections
 */
public record DeepLock(long timeNanos, String lockClass, int lockHash, String kind, DeepCounts counts, String firstLocker,
                       String firstSite, boolean lockedByOthers, long firstRunAll, long firstRunNonRecursive,
                       long firstLockerNonRecursive, Sections sections) {
    /**
     * Kawachiya's fat and flat sections (§4.4, Table 4.3), time counted in synchronisation operations
     * (acquisitions, releases, waits and notifies, recursive ones included): an operation is fat while
     * another thread tries to acquire the lock and does not hold it yet, or waits for a notification on
     * it (for a {@code java.util.concurrent} lock only the slow acquisition itself is seen fat); sections are
     * the maximal runs of each kind.
     */
    public record Sections(long fat, long flat, long fatOps, long flatOps) {
    }

    /**
     * Mean flat-section length over mean fat-section length, in synchronisation operations (Kawachiya
     * §4.4's contention transience: flat sections much longer than fat ones); infinite for a lock never
     * in a fat section.
     */
    public double flatToFatRatio() {
        if (sections.fat() == 0 || sections.fatOps() == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double flat = sections.flat() == 0 ? 0 : (double) sections.flatOps() / sections.flat();
        return flat / ((double) sections.fatOps() / sections.fat());
    }

    /** Share of acquisitions in the first repetition (thread locality), 0..1. */
    public double firstRepetitionShare() {
        return counts.gets() == 0 ? 0 : (double) firstRunAll / counts.gets();
    }
}
