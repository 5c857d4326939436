package dev.lockscope.agent.boot;

import dev.lockscope.core.ParkTally;

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

    static void onPark(BlockerRecord r, long now) {
        while (true) {
            ParkTally prev = r.tally.get();
            ParkTally next = prev.park(now);
            if (r.tally.compareAndSet(prev, next)) {
                if (!prev.collecting && next.collecting) {
                    captureFirst(r);
                }
                return;
            }
        }
    }

    static void onUnpark(BlockerRecord r, long now) {
        while (true) {
            ParkTally prev = r.tally.get();
            if (r.tally.compareAndSet(prev, prev.unpark(now))) {
                return;
            }
        }
    }

    /** §3.7.1/§3.7.2: name and stack of the thread whose park started collection; once per blocker. */
    private static void captureFirst(BlockerRecord r) {
        Thread t = Thread.currentThread();
        StackTraceElement[] stack = new Throwable().getStackTrace();
        List<String> frames = new ArrayList<>(stack.length);
        for (StackTraceElement e : stack) {
            if (frames.isEmpty() && e.getClassName().startsWith("dev.lockscope.agent.boot.")) {
                continue; // our own hook frames sit on top of LockSupport.park
            }
            frames.add(dev.lockscope.core.Frames.format(e));
        }
        r.firstFrames = frames.toArray(new String[0]);
        r.firstThread = t.getName();
    }

    /** All records, for a report. */
    public static List<BlockerRecord> snapshot() {
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
