package dev.lockscope.locks;

/**
 * Which library lock fits a lock whose behaviour the profiler measured, with the benchmark row (in
 * docs/locks.md) that supports the choice on the hardware the rows were measured on. This is the hook for
 * the deep-mode report (issue 18, not built yet): it measures thread locality and contention transience
 * per lock with the definitions of Kawachiya, "Java Locks: Analysis and Acceleration":
 * <ul>
 *   <li>thread locality (§5.2): the share of acquisitions in the lock sequence's first repetition, the
 *       leading run of the initial locker (Table 5.2; "more than 75%" even in multi-threaded programs);</li>
 *   <li>contention transience (§4.4): flat sections much longer than fat sections, measured in
 *       synchronization operations (Table 4.3: more than 10 times for the "nowait" group), and whether the
 *       lock is used for Java-level waits (the "wait" group keeps its locality of contention).</li>
 * </ul>
 */
public enum LockRecommendation {

    /** Contention comes and goes: deflating after it pays (the VM's monitor deflates only asynchronously). */
    TASUKI("TasukiLock", "ContentionBenchmark.flatFat kind=tasuki history=after-contention"),
    /** One thread takes nearly every acquisition but others appear now and then: the bias is never lost. */
    ASYMMETRIC_TASUKI("AsymmetricTasukiLock", "RoundsBenchmark.oneRound round=round7"),
    /** One thread takes every acquisition for the lock's life: the cheapest owner path, one cancellation. */
    RESERVATION("ReservationLock", "PrimitiveBenchmark.lockOutermost mode=flat kind=reservation"),
    /** Long fat sections or Java-level waits: no library lock beats the VM's monitor here. */
    KEEP_CURRENT_LOCK("(keep the current lock)", "ContentionBenchmark.thrashing");

    /** Flat/fat section length ratio above which contention counts as transient (Table 4.3: over 10). */
    public static final double TRANSIENT_FLAT_TO_FAT_RATIO = 10.0;
    /** First-repetition share above which a lock counts as thread-local (Table 5.2). */
    public static final double THREAD_LOCAL_SHARE = 0.75;
    /** First-repetition share above which the reservation is expected never to be cancelled. */
    public static final double RESERVATION_SHARE = 0.999;

    /** The class an application would use. */
    public final String lockClass;
    /** The benchmark row of docs/locks.md that supports the choice. */
    public final String benchmarkRow;

    LockRecommendation(String lockClass, String benchmarkRow) {
        this.lockClass = lockClass;
        this.benchmarkRow = benchmarkRow;
    }

    /**
     * @param firstRepetitionShare acquisitions in the first repetition / all acquisitions, 0..1
     * @param flatToFatRatio mean flat-section length / mean fat-section length (infinite if never contended)
     * @param javaLevelWaits whether the lock is used for wait/notify (the thesis's "wait" group)
     */
    public static LockRecommendation forMeasured(double firstRepetitionShare, double flatToFatRatio,
            boolean javaLevelWaits) {
        if (javaLevelWaits || flatToFatRatio < TRANSIENT_FLAT_TO_FAT_RATIO) {
            return KEEP_CURRENT_LOCK;
        }
        if (firstRepetitionShare >= RESERVATION_SHARE) {
            return RESERVATION;
        }
        if (firstRepetitionShare >= THREAD_LOCAL_SHARE) {
            return ASYMMETRIC_TASUKI;
        }
        return TASUKI;
    }
}
