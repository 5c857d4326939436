package dev.lockscope.agent.boot;

import java.lang.invoke.VarHandle;
import java.util.function.LongSupplier;

/**
 * JFR's clock as {@code System.nanoTime()} minus a constant, where it is that. On Linux both read
 * {@code CLOCK_MONOTONIC} in nanoseconds and JFR counts from the JVM's start ({@code os::elapsed_counter}), so
 * the park hooks can write a park event's start and duration from the clock reads the live tally makes anyway,
 * instead of JFR reading the clock twice more in {@code begin()} and {@code end()}. Elsewhere (another OS, or
 * {@code -XX:+UseFastUnorderedTimeStamps}, where JFR reads the TSC) calibration finds no such constant and the
 * hooks let JFR read its own clock.
 */
final class JfrClock {
    /** Written once, before {@link #known} is set: a thread that reads known true sees it (volatile write, then read). */
    private static long offset;
    private static volatile boolean known;
    /**
     * Widest bracket accepted for the offset. Each sample brackets JFR's reading between two nanoTime reads, so
     * the bracket is about two clock reads wide (40 to 70 ns on this project's machines); the estimate, its middle,
     * puts an event's start within half of it of where JFR's own begin() would have.
     */
    static final long MAX_BRACKET_NANOS = 1_000;

    private JfrClock() {
    }

    /** Whether {@link #ticks} may be used. */
    static boolean known() {
        return known;
    }

    /** JFR's clock at the moment {@code System.nanoTime()} read {@code nanoTime}; only while {@link #known}. */
    static long ticks(long nanoTime) {
        return nanoTime - offset;
    }

    /**
     * Finds the offset from JFR's clock as {@code jfrNow} reads it (0: JFR stored nothing, e.g. the event it reads
     * through was disabled): every sample reads nanoTime, JFR's clock, nanoTime, so the offset lies between the
     * first read minus JFR's and the second minus JFR's; the intersection over thousands of samples taken over at
     * least 5 ms pins it within a clock read. If the brackets ever fail to intersect, JFR's clock is not nanoTime
     * minus a constant (another rate or another clock: over 5 ms any rate other than 1 GHz drifts by microseconds),
     * and it stays unknown.
     *
     * @return whether the offset is known (now or from before)
     */
    static boolean calibrate(LongSupplier jfrNow) {
        if (known) {
            return true;
        }
        long found = offsetOf(jfrNow);
        if (found == Long.MIN_VALUE) {
            return false;
        }
        offset = found;
        known = true; // publishes offset
        return true;
    }

    /** The offset {@link #calibrate} finds, or Long.MIN_VALUE where there is none. */
    static long offsetOf(LongSupplier jfrNow) {
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        long first = System.nanoTime();
        for (int n = 0; n < 1_000_000; n++) {
            long before = System.nanoTime();
            long jfr = jfrNow.getAsLong();
            long after = System.nanoTime();
            if (jfr == 0) {
                return Long.MIN_VALUE;
            }
            lo = Math.max(lo, before - jfr);
            hi = Math.min(hi, after - jfr);
            if (lo > hi) {
                return Long.MIN_VALUE;
            }
            if (n >= 20_000 && after - first >= 5_000_000L) {
                break;
            }
        }
        return hi - lo > MAX_BRACKET_NANOS ? Long.MIN_VALUE : lo + (hi - lo) / 2;
    }

    /** JFR's clock read through an enabled event's {@code begin()}, which stores it in the field {@code startTime} reads. */
    static LongSupplier readThrough(jdk.jfr.Event event, VarHandle startTime) {
        return new LongSupplier() { // not a lambda: nothing in the hooks' classes links one
            @Override
            public long getAsLong() {
                event.begin();
                return (long) startTime.get(event);
            }
        };
    }
}
