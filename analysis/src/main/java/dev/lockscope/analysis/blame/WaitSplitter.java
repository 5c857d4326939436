package dev.lockscope.analysis.blame;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one wait [begin, end] at the hand-offs of its lock into spans blamed on successive owners
 * (seed 001 Fig. 4.4 and 4.6). Each span up to a release is blamed on the releasing owner; the time
 * from a release until the successor took the lock goes to {@link Cause#UNKNOWN}, because neither
 * the previous nor the next owner held the lock then (seed 001 L1198); the rest after the last
 * release is blamed on {@code tail}.
 */
final class WaitSplitter {
    /** A piece of a wait and whom it is blamed on. */
    record Span(long beginNanos, long endNanos, Cause cause) {
        long durationNanos() {
            return endNanos - beginNanos;
        }
    }

    private WaitSplitter() {
    }

    /**
     * @param previous the last hand-off before the wait began, or null: its unknown gap may overlap the wait
     * @param inside   hand-offs released inside (begin, end], in order
     */
    static List<Span> split(long begin, long end, Handoff previous, List<Handoff> inside, Cause tail) {
        List<Span> out = new ArrayList<>();
        long cursor = begin;
        if (previous != null) {
            cursor = add(out, cursor, Math.min(previous.takenNanos(), end), Cause.UNKNOWN);
        }
        for (Handoff h : inside) {
            cursor = add(out, cursor, Math.min(h.releaseNanos(), end), h.cause());
            cursor = add(out, cursor, Math.min(h.takenNanos(), end), Cause.UNKNOWN);
        }
        add(out, cursor, end, tail);
        return out;
    }

    /** Adds [from, to] when not empty; returns the new cursor. */
    private static long add(List<Span> out, long from, long to, Cause cause) {
        if (to <= from) {
            return from;
        }
        out.add(new Span(from, to, cause));
        return to;
    }
}
