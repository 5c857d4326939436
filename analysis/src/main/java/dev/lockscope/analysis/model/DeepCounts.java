package dev.lockscope.analysis.model;

/**
 * Deep mode's counts of one lock object or one site (JLM's statistics, IBM's Java Lock Monitor and
 * Health Center): every acquisition in the selected classes.
 *
 * @param gets          acquisitions (GETS)
 * @param nonRecursive  acquisitions by a thread that did not hold the lock (NONREC)
 * @param slow          non-recursive acquisitions begun while another thread held the lock (SLOW)
 * @param recursive     acquisitions by the holder (REC)
 * @param tryFailures   {@code tryLock} calls that did not get the lock
 * @param sections      locked sections: outermost holds, split by waits
 * @param holdNanos     total time held
 * @param holdNanos     total time held (sampled sections weighted: see timedSections)
 * @param maxHoldNanos  the longest timed hold
 * @param holdHistogram sections per decade of hold time ({@code dev.lockscope.core.HoldHistogram}; sampled sections weighted)
 * @param blocked       slow acquisitions in which the thread blocked in the JVM (monitors: what JFR's
 *                      {@code jdk.JavaMonitorEnter} records) or parked ({@code java.util.concurrent} locks)
 * @param timedSections sections whose hold was timed: every one of an object's first 1,024, then one in 16
 *                      (each counted 16 times in holdNanos and the histogram)
 */
public record DeepCounts(long gets, long nonRecursive, long slow, long recursive, long tryFailures, long waits,
                         long notifies, long sections, long holdNanos, long maxHoldNanos, long[] holdHistogram,
                         long blocked, long timedSections) {
    /** %MISS = 100 · SLOW / NONREC. */
    public double missPct() {
        return nonRecursive == 0 ? 0 : 100.0 * slow / nonRecursive;
    }

    /** 100 · blocked / NONREC: the outermost acquisitions that really blocked. */
    public double blockedPct() {
        return nonRecursive == 0 ? 0 : 100.0 * blocked / nonRecursive;
    }

    /** Whether every section's hold was timed (else hold figures are estimates from a sample). */
    public boolean holdsExact() {
        return timedSections >= sections;
    }

    /** Average hold time per locked section (JLM's AVER-HTM). */
    public long avgHoldNanos() {
        return sections == 0 ? 0 : holdNanos / sections;
    }

    /** %UTIL = 100 · time held / {@code overNanos}. */
    public double utilPct(long overNanos) {
        return overNanos <= 0 ? 0 : 100.0 * holdNanos / overNanos;
    }
}
