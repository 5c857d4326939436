package dev.lockscope.core;

import java.util.Arrays;

/**
 * Rebuilds a {@link ParkTally} from recorded wait intervals (park begin/end, or monitor
 * blocked/entered), by replaying their begin and end events in time order through the tally.
 * Used wherever waits come from a recording rather than from live hooks.
 */
public final class IntervalReplay {
    /** End time of a wait that had not ended when the recording stopped ("parked now"). */
    public static final long OPEN = Long.MIN_VALUE;

    private long[] begins = new long[16];
    private long[] ends = new long[16];
    private int size;

    /** Adds one wait; {@code end} may be {@link #OPEN}. */
    public void add(long begin, long end) {
        if (size == begins.length) {
            begins = Arrays.copyOf(begins, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
        }
        begins[size] = begin;
        ends[size] = end;
        size++;
    }

    public int size() {
        return size;
    }

    /** Order of events at equal timestamps; see {@link #tally}. */
    private static final byte END = 0;
    private static final byte BEGIN = 1;
    private static final byte END_OF_ZERO_LENGTH = 2;

    /**
     * Replays all waits. At equal timestamps ends come before begins, so two waits that merely
     * touch are not counted as overlapping (no spurious peak); the end of a zero-length wait comes
     * after its own begin, since a thread cannot return from a park it has not entered.
     */
    public ParkTally tally(long collectionThreshold) {
        int n = 0;
        long[] times = new long[size * 2];
        byte[] kinds = new byte[size * 2];
        for (int i = 0; i < size; i++) {
            times[n] = begins[i];
            kinds[n++] = BEGIN;
            if (ends[i] != OPEN) {
                times[n] = ends[i];
                kinds[n++] = ends[i] == begins[i] ? END_OF_ZERO_LENGTH : END;
            }
        }
        // Sort indices by (time, kind): encoding both in one long could overflow for epoch nanos.
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(times[a], times[b]);
            return c != 0 ? c : Byte.compare(kinds[a], kinds[b]);
        });
        ParkTally tally = ParkTally.empty(collectionThreshold);
        for (Integer i : order) {
            tally = kinds[i] == BEGIN ? tally.park(times[i]) : tally.unpark(times[i]);
        }
        return tally;
    }
}
