package dev.lockscope.core;

/**
 * The lock objects retired so far ({@link FollowedLocks}), as 64-bit hashes of their keys in an open-addressed table
 * that stops growing at {@link #MAX_SLOTS} (4 MB): an object waited for again after it was retired is not counted
 * twice in its site's objects (Derby's row locks: 161,789 instead of 145,611 on a 120-s run). Past that fill it
 * answers "not seen" and the count may again count an object twice; parks and times are exact either way.
 *
 * <p>Not thread-safe.
 */
final class RetiredKeys {
    static final int MAX_SLOTS = 1 << 19;
    private long[] slots = new long[1 << 10];
    private int size;

    /** Whether {@code hash} is here. */
    boolean contains(long hash) {
        long h = nonZero(hash);
        int mask = slots.length - 1;
        for (int i = (int) h & mask; slots[i] != 0; i = (i + 1) & mask) {
            if (slots[i] == h) {
                return true;
            }
        }
        return false;
    }

    /** Adds {@code hash}; whether it was there. */
    boolean add(long hash) {
        long h = nonZero(hash);
        if (size >= slots.length / 2) {
            if (slots.length >= MAX_SLOTS) {
                return false;
            }
            grow();
        }
        return insert(slots, h);
    }

    private boolean insert(long[] table, long h) {
        int mask = table.length - 1;
        for (int i = (int) h & mask; ; i = (i + 1) & mask) {
            if (table[i] == h) {
                return true;
            }
            if (table[i] == 0) {
                table[i] = h;
                if (table == slots) {
                    size++;
                }
                return false;
            }
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        for (long h : old) {
            if (h != 0) {
                insert(slots, h);
            }
        }
    }

    /** 0 marks an empty slot. */
    private static long nonZero(long h) {
        return h == 0 ? 1 : h;
    }

    /** A 64-bit hash of a key's text (FNV-1a), continued from {@code h} ({@link #SEED} to begin). */
    static long hash(long h, CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            h = (h ^ text.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    /** {@code h} continued with the eight bytes of {@code value}. */
    static long hash(long h, long value) {
        for (int i = 0; i < 8; i++) {
            h = (h ^ (value >>> (8 * i) & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    static final long SEED = 0xcbf29ce484222325L;
}
