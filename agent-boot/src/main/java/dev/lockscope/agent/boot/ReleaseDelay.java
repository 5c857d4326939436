package dev.lockscope.agent.boot;

import java.util.concurrent.locks.LockSupport;

/**
 * The what-if experiment's hook ({@code lockscope whatif --measure}, agent option {@code delayRelease}):
 * called by the one instrumented method just before it releases its lock, it makes the calling thread,
 * still holding the lock, wait a known time. The holds at that site grow by that time; how much the
 * program's throughput drops tells how sensitive it is to them (a causal experiment, as Coz does for lines
 * of code).
 *
 * <p>Only the instrumented site calls it, and only when the option is on: nothing else in the program runs
 * it. Each thread counts its own delayed releases and their time ({@link PerThread}, summed when asked): shared
 * atomic counters, written by whichever thread held the site's lock, moved their cache line between cores at every
 * release, inside the timed delay. Never throws into the application.
 */
public final class ReleaseDelay {
    /** Below this much left, spin instead of parking: a park's wake-up is late by tens of microseconds. */
    private static final long SPIN_NANOS = 100_000;

    private static volatile long delayNanos;

    private ReleaseDelay() {
    }

    public static void configure(long nanos) {
        delayNanos = nanos;
    }

    /** Waits the configured time, the lock still held. */
    public static void beforeRelease() {
        long delay = delayNanos;
        if (delay <= 0) {
            return;
        }
        try {
            long start = System.nanoTime();
            long end = start + delay;
            // inside the timed part, so that of the hook's own time only the count's two plain stores are left out of
            // the measured delay (it matters beside a delay of 100 ns, for a hold of 0.2 µs)
            PerThread pt = PerThread.current();
            long now = start;
            for (long left = delay; left > 0; left = end - now) {
                if (left > SPIN_NANOS) {
                    LockSupport.parkNanos(left - SPIN_NANOS / 2); // no blocker: not a lock wait of the program
                } else {
                    Thread.onSpinWait();
                }
                now = System.nanoTime();
            }
            pt.releaseDelayed(now - start); // the loop's last clock read ends it: one read fewer inside the hold
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    /** Releases delayed so far. */
    public static long releases() {
        return PerThread.releasesDelayed()[0];
    }

    /** Time they were delayed in all, nanoseconds (a little more than releases × delay: wake-ups are late). */
    public static long delayedNanos() {
        return PerThread.releasesDelayed()[1];
    }
}
