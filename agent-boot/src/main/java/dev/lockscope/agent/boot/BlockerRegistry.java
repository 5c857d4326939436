package dev.lockscope.agent.boot;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * All live park-contention records, keyed weakly by blocker identity.
 *
 * <p>Memory is bounded: at most {@code maxBlockers} records; parks on further new blockers are
 * counted in {@link #untracked()} and otherwise only recorded as JFR events. Lookups are lock-free
 * ({@code ConcurrentHashMap.get}); only the first park on a new blocker inserts, which may take the
 * map's per-bin lock for the length of an insert.
 */
public final class BlockerRegistry {
    private static final ConcurrentHashMap<Object, BlockerRecord> RECORDS = new ConcurrentHashMap<>(256);
    private static final AtomicLong UNTRACKED = new AtomicLong();
    private static volatile long collectionThreshold;
    private static volatile int maxBlockers = 50_000;

    private BlockerRegistry() {
    }

    public static void configure(long collectionThreshold, int maxBlockers) {
        BlockerRegistry.collectionThreshold = collectionThreshold;
        BlockerRegistry.maxBlockers = maxBlockers;
    }

    static BlockerRecord recordFor(Object blocker) {
        BlockerRecord r = RECORDS.get(new BlockerRecord.Lookup(blocker));
        if (r != null) {
            return r;
        }
        if (RECORDS.size() >= maxBlockers) {
            UNTRACKED.incrementAndGet();
            return null;
        }
        BlockerRecord fresh = new BlockerRecord(blocker, collectionThreshold);
        BlockerRecord raced = RECORDS.putIfAbsent(fresh.key, fresh);
        return raced != null ? raced : fresh;
    }

    /** All records. */
    public static List<BlockerRecord> records() {
        return new ArrayList<>(RECORDS.values());
    }

    /** Free-on-print (§3.3.3): drop records of blockers the GC has collected. */
    public static int removeDead() {
        int removed = 0;
        for (BlockerRecord r : RECORDS.values()) {
            if (r.isDead() && RECORDS.remove(r.key, r)) {
                removed++;
            }
        }
        return removed;
    }

    /** Drops the record of one blocker (the agent's own warm-up blocker). */
    static void forget(Object blocker) {
        RECORDS.remove(new BlockerRecord.Lookup(blocker));
    }

    public static long untracked() {
        return UNTRACKED.get();
    }
}
