package dev.lockscope.agent.boot;

import jdk.internal.vm.annotation.DontInline;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * All live park-contention records, keyed weakly by blocker identity.
 *
 * <p>Memory is bounded in bytes: every record is charged {@link #RECORD_BYTES}, every distinct first
 * stack, frame and thread name it keeps is charged once ({@link FirstStacks}: records share them), as is
 * every lock site ({@link SiteUnion}), and
 * nothing is added past {@code maxBytes} (nor past {@code maxBlockers} records). Parks on further new
 * blockers are counted in {@link #untracked()} and otherwise only recorded as JFR events; a record over
 * the stack budget keeps its counters but no first stack. Records of blockers the GC has collected are
 * dropped as the GC queues their weak keys, by lockscope's thread {@value #DROPPER_NAME}, so a fresh lock per
 * request does not fill the registry; their final tallies are added to their site's
 * ({@link SiteUnion#addCollected}), so the table still counts every park on them. Lookups are lock-free
 * ({@code ConcurrentHashMap.get}); only the first park on a new blocker inserts, which may take the map's
 * per-bin lock for the length of an insert. Nothing else on the park path locks: the reference queue's lock
 * (which the JDK's Reference Handler takes for every key it queues) is taken by the dropper alone, and the
 * bytes in use are computed from the map's size (striped counters), not kept in a counter every insert
 * writes.
 */
public final class BlockerRegistry {
    /**
     * What one record costs, estimated for a 64-bit JVM with compressed pointers and rounded up: the
     * record (~112 bytes), its weak key (~40), the map's node (32) and its share of the map's table.
     */
    static final long RECORD_BYTES = 256;
    /** The default of {@code maxBlockerMemory}: 16 MB, about 1% of a 2 GB heap. */
    public static final long DEFAULT_MAX_BYTES = 16L << 20;

    static final String DROPPER_NAME = "lockscope-registry";
    /**
     * How often the dropper looks for collected blockers while it finds some: a record outlives its blocker by
     * at most this where blockers come and go (a fresh lock per request).
     */
    static final long DROP_PERIOD_MILLIS = 100;
    /**
     * How often it looks after a look that found none: an application with no fresh locks wakes lockscope's
     * thread once a second, not ten times (10 wake-ups a second were 0.3 to 0.5 ms of CPU a second in an idle JVM,
     * docs/agent-cost.md "The agent's cost per second"); the first collected key found brings back 100 ms.
     */
    static final long IDLE_DROP_PERIOD_MILLIS = 1_000;

    private static final ConcurrentHashMap<Object, BlockerRecord> RECORDS = new ConcurrentHashMap<>(256);
    static final ReferenceQueue<Object> COLLECTED = new ReferenceQueue<>();
    private static final AtomicLong UNTRACKED = new AtomicLong();
    private static Thread dropper; // guarded by the class
    private static volatile long collectionThreshold;
    private static volatile int maxBlockers = 50_000;
    private static volatile long maxBytes = DEFAULT_MAX_BYTES;

    private BlockerRegistry() {
    }

    public static void configure(long collectionThreshold, int maxBlockers) {
        configure(collectionThreshold, maxBlockers, DEFAULT_MAX_BYTES);
    }

    public static void configure(long collectionThreshold, int maxBlockers, long maxBytes) {
        BlockerRegistry.collectionThreshold = collectionThreshold;
        BlockerRegistry.maxBlockers = maxBlockers;
        BlockerRegistry.maxBytes = maxBytes;
    }

    /**
     * The record of {@code blocker}, made at its first park; a park hook asks only when its thread's two-entry
     * cache misses, so this is kept out of the hook's compiled code (see ParkHooks).
     */
    @DontInline
    static BlockerRecord recordFor(Object blocker) {
        BlockerRecord r = RECORDS.get(new BlockerRecord.Lookup(blocker));
        if (r != null) {
            return r;
        }
        if (RECORDS.size() >= maxBlockers || bytesInUse() + RECORD_BYTES > maxBytes) {
            UNTRACKED.incrementAndGet();
            return null;
        }
        BlockerRecord fresh = new BlockerRecord(blocker, collectionThreshold);
        BlockerRecord raced = RECORDS.putIfAbsent(fresh.key, fresh);
        return raced != null ? raced : fresh;
    }

    /** Whether a first stack of {@code bytes} more still fits (asked once per blocker, when it is captured). */
    static boolean fits(long bytes) {
        return bytesInUse() + bytes <= maxBytes;
    }

    /** The bytes charged now: records plus the first stacks, frames and names they share. */
    public static long bytesInUse() {
        return RECORDS.size() * RECORD_BYTES + FirstStacks.bytesInUse() + SiteUnion.bytesInUse();
    }

    public static long maxBytes() {
        return maxBytes;
    }

    /**
     * Starts the thread that drops the records of collected blockers as the GC queues their keys (once per
     * JVM), looking every {@value #DROP_PERIOD_MILLIS} ms while it finds some, every {@value #IDLE_DROP_PERIOD_MILLIS}
     * ms while it finds none. It sleeps in a park without a blocker, which the
     * hooks ignore and no event records; blocking in {@link ReferenceQueue#remove()} instead was an
     * {@code Object.wait} that JFR recorded, and lockscope's own thread showed as a lock in the user's table.
     */
    static synchronized void startDropping() {
        if (dropper != null) {
            return;
        }
        dropper = new Thread(BlockerRegistry::dropWhileRunning, DROPPER_NAME);
        dropper.setDaemon(true);
        dropper.start();
    }

    /**
     * Ends the dropper when profiling stops (an attached agent's stop leaves no thread of lockscope's behind,
     * {@code AttachCyclesHarness}); keys the GC queues meanwhile wait in the queue for the next start. Waits
     * up to a second for the thread to end: it holds no lock the caller could need.
     */
    static void stopDropping() {
        Thread t;
        synchronized (BlockerRegistry.class) {
            t = dropper;
            dropper = null;
        }
        OwnThreads.end(t);
    }

    private static void dropWhileRunning() {
        while (!Thread.currentThread().isInterrupted()) {
            long period = IDLE_DROP_PERIOD_MILLIS;
            try {
                if (dropCollected() > 0) { // polling an empty queue reads one field: no lock
                    period = DROP_PERIOD_MILLIS;
                }
            } catch (Throwable t) {
                HookFailures.record(t);
            }
            LockSupport.parkNanos(period * 1_000_000L); // returns at once when stopDropping interrupts
        }
    }

    /**
     * Moves a record from the map into its site's collected sum (or, for a snapshot, holds such moves off):
     * taken by lockscope's and JFR's threads only (the dropper, chunk-end summaries, tables, scrapes), never on
     * the application's park path. A snapshot that ran beside a drop counted the record twice (in the map and
     * in the sum) or, between its removal and its fold, not at all.
     */
    static final Object DROPS = new Object();

    /**
     * Drops the records whose blockers the GC collected and queued since the last call (tests; the dropper);
     * returns how many keys it found.
     */
    public static int dropCollected() {
        int found = 0;
        Reference<?> collected;
        while ((collected = COLLECTED.poll()) != null) {
            found++;
            synchronized (DROPS) {
                remove((BlockerRecord.WeakKey) collected);
            }
        }
        return found;
    }

    private static void remove(BlockerRecord.WeakKey key) {
        BlockerRecord r = RECORDS.remove(key);
        if (r != null) {
            dropped(r);
        }
    }

    /** A collected blocker's record left the map: its site keeps counting its parks (the table at exit). */
    private static void dropped(BlockerRecord r) {
        SiteUnion site = r.site();
        if (site != null) {
            site.addCollected(r);
        }
    }

    /** All records. */
    public static List<BlockerRecord> records() {
        return new ArrayList<>(RECORDS.values());
    }

    /** Free-on-print (§3.3.3): drop records of blockers the GC has collected. */
    public static int removeDead() {
        int removed = 0;
        synchronized (DROPS) {
            for (BlockerRecord r : RECORDS.values()) {
                if (r.isDead() && RECORDS.remove(r.key, r)) {
                    dropped(r);
                    removed++;
                }
            }
        }
        return removed;
    }

    /** Drops the record of one blocker (the agent's own warm-up blocker). */
    static void forget(Object blocker) {
        BlockerRecord r = RECORDS.remove(new BlockerRecord.Lookup(blocker));
        if (r != null) {
            SiteUnion.forget(r.site());
        }
    }

    public static long untracked() {
        return UNTRACKED.get();
    }
}
