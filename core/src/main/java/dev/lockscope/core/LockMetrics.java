package dev.lockscope.core;

import java.util.List;

/**
 * The fifteen park-contention metrics of the J9 park-contention report §3.7 for one blocker (or one contended monitor,
 * where "parked" reads "blocked on entry"), derived from a final {@link ParkTally}.
 *
 * @param kind            park or monitor
 * @param className       §3.7.3 class of the blocker / monitor object
 * @param identityHash    §3.7.4 identity hash code, hex; for monitors the JVM's monitor address; for a lock
 *                        site (instances grouped by {@link LockSites}) {@code at } and the acquiring site
 * @param firstThread     §3.7.1 thread of the first monitored park
 * @param firstFrames     §3.7.2 its stack, frames as {@code package.Class.method:line}, innermost first
 * @param totalExecutionNanos the denominator of §3.7.12/§3.7.13 (JVM uptime or recording length)
 * @param instances       lock objects this row sums: 1 for one lock, more for a site
 */
public record LockMetrics(LockKind kind, String className, String identityHash, String firstThread,
                          List<String> firstFrames, ParkTally tally, long totalExecutionNanos, int instances) {

    public LockMetrics {
        firstFrames = CallStack.copyOf(firstFrames);
    }

    /** One lock object. */
    public LockMetrics(LockKind kind, String className, String identityHash, String firstThread,
                       List<String> firstFrames, ParkTally tally, long totalExecutionNanos) {
        this(kind, className, identityHash, firstThread, firstFrames, tally, totalExecutionNanos, 1);
    }

    /** Whether this row is a lock site (instances of the class taken at one place) rather than one object. */
    public boolean isSite() {
        return identityHash.startsWith(LockSites.SITE_PREFIX);
    }

    /** The identity of this row, by which blame, rules and what-if find it. */
    public LockId id() {
        return new LockId(kind, className, identityHash);
    }

    /** {@code class@hash} for one lock, {@code class at Frame.method:line} for a site. */
    public String label() {
        return label(className, identityHash);
    }

    /** The label of the row with this class and identity (see {@link #label()}). */
    public static String label(String className, String identityHash) {
        return className + (identityHash.startsWith(LockSites.SITE_PREFIX) ? " " : "@") + identityHash;
    }

    public long timesParked() {
        return tally.timesParked;
    }

    public int parkedNow() {
        return tally.parkedNow;
    }

    public int peakParked() {
        return tally.peakParked;
    }

    public long threadTimeNanos() {
        return tally.threadTimeNanos;
    }

    public long realTimeNanos() {
        return tally.realTimeNanos;
    }

    /** The total wait on this lock, by which reports rank locks: the parking thread-time. */
    public long totalWaitNanos() {
        return tally.threadTimeNanos;
    }

    /** §3.7.10 AverageParkingTime = ParkingThreadTime / TimesParked. */
    public double avgParkNanos() {
        return tally.timesParked == 0 ? 0 : (double) tally.threadTimeNanos / tally.timesParked;
    }

    /** §3.7.11 AverageHoldTime = ParkingRealTime / (TimesParked − ParkedNow). */
    public double avgHoldNanos() {
        long unparked = tally.timesParked - tally.parkedNow;
        return unparked <= 0 ? 0 : (double) tally.realTimeNanos / unparked;
    }

    /** §3.7.12 %RealTimeUtil = 100 × ParkingRealTime / TotalExecutionTime. */
    public double realTimeUtilPct() {
        return pct(tally.realTimeNanos, totalExecutionNanos);
    }

    /** §3.7.13 %ThreadTimeUtil = 100 × ParkingThreadTime / TotalExecutionTime. */
    public double threadTimeUtilPct() {
        return pct(tally.threadTimeNanos, totalExecutionNanos);
    }

    /** §3.7.14 %RealLifeTimeUtil = 100 × ParkingRealTime / (Time(n) − Time(1)). */
    public double realLifeTimeUtilPct() {
        return pct(tally.realTimeNanos, tally.lifeTimeNanos());
    }

    /** §3.7.15 %ThreadLifeTimeUtil = 100 × ParkingThreadTime / (Time(n) − Time(1)). */
    public double threadLifeTimeUtilPct() {
        return pct(tally.threadTimeNanos, tally.lifeTimeNanos());
    }

    private static double pct(long part, long whole) {
        return whole <= 0 ? 0 : 100.0 * part / whole;
    }
}
