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

    /**
     * Replays all waits. At equal timestamps an end is applied before a begin, so two waits that
     * merely touch are not counted as overlapping.
     */
    public ParkTally tally(long collectionThreshold) {
        // Encode each event as time*2 + (0 for end, 1 for begin) would overflow; sort pairs instead.
        int n = 0;
        long[] times = new long[size * 2];
        byte[] kinds = new byte[size * 2];
        Integer[] order;
        for (int i = 0; i < size; i++) {
            times[n] = begins[i];
            kinds[n++] = 1;
            if (ends[i] != OPEN) {
                times[n] = ends[i];
                kinds[n++] = 0;
            }
        }
        order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        final long[] t = times;
        final byte[] k = kinds;
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(t[a], t[b]);
            return c != 0 ? c : Byte.compare(k[a], k[b]);
        });
        ParkTally tally = ParkTally.empty(collectionThreshold);
        for (Integer i : order) {
            tally = kinds[i] == 1 ? tally.park(times[i]) : tally.unpark(times[i]);
        }
        return tally;
    }
}
