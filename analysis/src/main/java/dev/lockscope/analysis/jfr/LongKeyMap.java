package dev.lockscope.analysis.jfr;

import java.util.Map;

/**
 * A read-only map from long keys to values, open addressing in two arrays: a constant pool that every
 * event looks up (the string pool: an event's class names and long texts are keys into it). A
 * {@code HashMap<Long, Object>} boxed each key and chased a node per lookup.
 */
final class LongKeyMap {
    private static final LongKeyMap EMPTY = new LongKeyMap(Map.of());

    private final long[] keys;
    private final Object[] values;
    private final boolean[] used;
    private final int mask;

    private LongKeyMap(Map<Long, Object> from) {
        int capacity = Integer.highestOneBit(Math.max(4, from.size() * 2 - 1)) << 1; // load factor at most 1/2
        keys = new long[capacity];
        values = new Object[capacity];
        used = new boolean[capacity];
        mask = capacity - 1;
        from.forEach((k, v) -> {
            int i = slot(k);
            while (used[i] && keys[i] != k) {
                i = (i + 1) & mask;
            }
            used[i] = true;
            keys[i] = k;
            values[i] = v;
        });
    }

    static LongKeyMap of(Map<Long, Object> from) {
        return from.isEmpty() ? EMPTY : new LongKeyMap(from);
    }

    /** The value of {@code key}, or null. */
    Object get(long key) {
        int i = slot(key);
        while (used[i]) {
            if (keys[i] == key) {
                return values[i];
            }
            i = (i + 1) & mask;
        }
        return null;
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 32) & mask;
    }
}
