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
 */
public record DeepLock(long timeNanos, String lockClass, int lockHash, String kind, DeepCounts counts, String firstLocker,
                       String firstSite, boolean lockedByOthers, long firstRunAll, long firstRunNonRecursive,
                       long firstLockerNonRecursive) {
}
