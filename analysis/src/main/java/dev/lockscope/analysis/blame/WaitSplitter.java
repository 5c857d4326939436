package dev.lockscope.analysis.blame;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one wait [begin, end] at the hand-offs of its lock into spans blamed on successive owners
 * (seed 001 Fig. 4.4 and 4.6): the span up to each release is blamed on the releasing owner, the rest
 * after the last release on {@code tail}.
 *
 * <p>For a park, the tail is the time from the unpark that woke this thread until it returned from
 * park: the lock was free and nobody can be blamed (seed 001 L1198), so parks pass
 * {@link Cause#UNKNOWN}. A thread that stays parked across a release is blamed on the next releasing
 * owner for the whole span up to that release, including the moment between the previous unpark and
 * the woken successor taking the lock, as in the seed's analyzer: the successor had the lock reserved.
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

    /** @param releases hand-offs released inside (begin, end], in order */
    static List<Span> split(long begin, long end, List<Handoff> releases, Cause tail) {
        List<Span> out = new ArrayList<>();
        long cursor = begin;
        for (Handoff h : releases) {
            cursor = add(out, cursor, Math.min(h.releaseNanos(), end), h.cause());
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
