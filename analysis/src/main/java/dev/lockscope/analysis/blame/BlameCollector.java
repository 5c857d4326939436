package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import dev.lockscope.core.LockSites;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where analyzers put what they find, summed at once by full key (lock, waiter thread and chain,
 * cause): its size is bounded by threads × locks × distinct stacks, not by the number of waits.
 *
 * <p>A lock here is an object, as the table's {@code --instances} shows them; the report then sums each
 * object's blame into its row ({@code LockContention.byRow}). An application that makes and drops lock
 * objects (Derby's row locks: tens of thousands in a few seconds) would make that a key per object, waiter and
 * cause, so a place (kind, class and acquiring frame of the wait, {@link LockSites#siteOf}) keeps its
 * first {@link #OBJECTS_PER_PLACE} objects apart and blames the later ones as the place itself, the row
 * the table makes of them: memory bounded by places, not objects. (An object first seen at such a place
 * whose earliest wait was elsewhere is blamed at this place; the table, which keeps every wait's times,
 * rows it by its earliest.)
 */
class BlameCollector {
    /** Objects of one place blamed one by one; the place's later objects are blamed as the place. */
    static final int OBJECTS_PER_PLACE = 64;

    /**
     * First span's begin, waiter thread id, lock, first span's length, then the whole record's text.
     * Written out rather than chained from lambdas: a convoy sorts millions of these.
     */
    private static final Comparator<Contention> CONTENTION_ORDER = (a, b) -> {
        int c = Long.compare(a.firstBeginNanos(), b.firstBeginNanos());
        if (c == 0) {
            c = Long.compare(a.waiter().javaTid(), b.waiter().javaTid());
        }
        if (c == 0) {
            c = a.lock().compareTo(b.lock());
        }
        if (c == 0) {
            c = Long.compare(a.firstNanos(), b.firstNanos());
        }
        if (c == 0 && ConvoyWaiters.isGroup(a.waiter())) {
            c = a.waiter().name().compareTo(b.waiter().name()); // groups of one hold differ in pool (cheaper than the text)
        }
        return c != 0 ? c : a.toString().compareTo(b.toString());
    };
    private static final Comparator<WaitRecord> WAIT_ORDER = Comparator.comparingLong(WaitRecord::firstBeginNanos)
            .thenComparingLong(w -> w.waiter().javaTid())
            .thenComparing(WaitRecord::lock)
            .thenComparingLong(WaitRecord::firstNanos)
            .thenComparing(WaitRecord::toString);

    /**
     * @param ownerTid for a cause known by owner id only (generic blockers), resolved to the recording's
     *                 thread of that id once all threads are known; 0 otherwise
     */
    private record Key(LockId lock, ThreadRef waiter, List<String> frames, Cause cause, boolean afterWait,
                       long ownerTid, long span) {
    }

    private record WaitKey(LockId lock, ThreadRef waiter, List<String> frames, ThreadRef notifier, List<String> notifierTookIn,
                           long span) {
    }

    /**
     * Count and total of spans, and the earliest span (begin, then length). Spans of sampled parks count
     * their weight times, summed apart in doubles so that a recording without sampling sums exactly.
     */
    private static final class Sum {
        long count;
        long nanos;
        double weightedCount;
        double weightedNanos;
        long timedOut;
        long firstBegin = Long.MAX_VALUE;
        long firstNanos;

        void add(long begin, long length, double weight) {
            add(begin, length, 1, weight);
        }

        /** {@code spans} spans of {@code length} each, all from {@code begin}, each standing for {@code weight} such spans. */
        void add(long begin, long length, long spans, double weight) {
            if (weight == 1) {
                count += spans;
                nanos += length * spans;
            } else {
                weightedCount += spans * weight;
                weightedNanos += length * (double) spans * weight;
            }
            if (begin < firstBegin || begin == firstBegin && length < firstNanos) {
                firstBegin = begin;
                firstNanos = length;
            }
        }

        long count() {
            return count + Math.round(weightedCount);
        }

        long nanos() {
            return nanos + Math.round(weightedNanos);
        }

        void add(Sum other) {
            count += other.count;
            nanos += other.nanos;
            weightedCount += other.weightedCount;
            weightedNanos += other.weightedNanos;
            timedOut += other.timedOut;
            if (other.firstBegin < firstBegin || other.firstBegin == firstBegin && other.firstNanos < firstNanos) {
                firstBegin = other.firstBegin;
                firstNanos = other.firstNanos;
            }
        }
    }

    /** Whether a place's objects past {@link #OBJECTS_PER_PLACE} are blamed as the place (not with {@code --instances}). */
    private final boolean foldObjects;
    /** The objects blamed one by one, each at most {@link #OBJECTS_PER_PLACE} of its place. */
    private final java.util.Set<LockId> keptObjects = new java.util.HashSet<>();
    /** Objects blamed one by one per place; a place at the bound blames its new objects as itself. */
    private final Map<LockId, Integer> objectsAtPlace = new HashMap<>();
    private final Map<List<String>, String> siteOfStack = new java.util.IdentityHashMap<>();
    private final Map<Key, Sum> contentions = new HashMap<>();
    private final Map<WaitKey, Sum> waits = new HashMap<>();
    /** @param foldObjects blame a place's objects past {@link #OBJECTS_PER_PLACE} as the place */
    BlameCollector(boolean foldObjects) {
        this.foldObjects = foldObjects;
    }

    /** Every object apart (tests, {@code --instances}). */
    BlameCollector() {
        this(false);
    }

    /** The lock a span of waiting for {@code lock} with the waiter's {@code frames} is summed under: it, or its place. */
    private LockId keyOf(LockId lock, List<String> frames) {
        if (!foldObjects || keptObjects.contains(lock) || lock.id().startsWith(LockSites.SITE_PREFIX)) {
            return lock;
        }
        LockId place = new LockId(lock.kind(), lock.lockClass(), siteOf(frames));
        int kept = objectsAtPlace.getOrDefault(place, 0);
        if (kept >= OBJECTS_PER_PLACE) {
            return place;
        }
        objectsAtPlace.put(place, kept + 1);
        keptObjects.add(lock);
        return lock;
    }

    /**
     * {@link LockSites#siteOf} of a waiter's stack, kept per stack: the reader interns stacks, so a few thousand
     * of them stand for millions of spans (cleared past 65,536: stacks made anew per span, in tests).
     */
    private String siteOf(List<String> frames) {
        if (siteOfStack.size() > 1 << 16) {
            siteOfStack.clear();
        }
        return siteOfStack.computeIfAbsent(frames, LockSites::siteOf);
    }

    /** How many spans each span added now stands for: 1, or a sampled park's weight while its spans are added. */
    private double weight = 1;

    /**
     * Spans added from now on stand for {@code weight} spans each ({@link dev.lockscope.analysis.model.ParkWait#weight}):
     * set by the park analysis around a sampled park's spans, 1 again after.
     */
    void weighting(double weight) {
        this.weight = weight;
    }
    /** Spans with equal keys and equal numbers here are summed: 0 sums by key; a test numbers each span apart. */
    long span() {
        return 0;
    }

    /** A span of contention; empty spans are dropped. */
    void contention(LockId lock, ThreadRef waiter, List<String> frames, long begin, long nanos, Cause cause,
                    boolean afterWait) {
        if (nanos > 0) {
            contentions.computeIfAbsent(new Key(keyOf(lock, frames), waiter, frames, cause, afterWait, 0, span()), k -> new Sum())
                    .add(begin, nanos, weight);
        }
    }

    /**
     * {@code spans} spans of contention of the same length from the same moment, waited by a group of
     * a convoy's waiters ({@link ConvoyWaiters}); empty spans are dropped.
     */
    void contentions(LockId lock, ThreadRef waiters, List<String> frames, long begin, long nanos, long spans, Cause cause,
                     boolean afterWait) {
        if (nanos > 0) {
            contentions.computeIfAbsent(new Key(keyOf(lock, frames), waiters, frames, cause, afterWait, 0, span()), k -> new Sum())
                    .add(begin, nanos, spans, weight);
        }
    }

    /** A span of contention blamed on the thread with this id, without a chain (see {@link #result}). */
    void contentionOwnedBy(LockId lock, ThreadRef waiter, List<String> frames, long begin, long nanos, long ownerTid,
                           String ownerName, boolean afterWait) {
        if (ownerTid == 0) {
            contention(lock, waiter, frames, begin, nanos, Cause.UNKNOWN, afterWait);
        } else if (nanos > 0) {
            Cause named = Cause.threadOnly(new ThreadRef(ownerTid, 0, ownerName == null ? "?" : ownerName));
            contentions.computeIfAbsent(new Key(keyOf(lock, frames), waiter, frames, named, afterWait, ownerTid, span()), k -> new Sum())
                    .add(begin, nanos, weight);
        }
    }

    void wait(LockId lock, ThreadRef waiter, List<String> frames, long begin, long nanos, ThreadRef notifier,
              List<String> notifierTookIn, boolean timedOut) {
        Sum s = waits.computeIfAbsent(new WaitKey(keyOf(lock, frames), waiter, frames, notifier, notifierTookIn, span()),
                k -> new Sum());
        s.add(begin, nanos, weight);
        s.timedOut += timedOut ? 1 : 0;
    }

    private static void addContention(List<Contention> out, Key k, Sum s) {
        out.add(new Contention(k.lock(), k.waiter(), k.frames(), k.cause(), k.afterWait(), s.count(), s.nanos(), s.firstBegin,
                s.firstNanos));
    }

    /**
     * Everything in one deterministic order; called once, at the recording's end (it empties the collector).
     *
     * @param threads the recording's threads by id: an owner known by id is named as the recording
     *                names that thread (its latest name), or by the name its blocker gave
     */
    BlameResult result(Map<Long, ThreadRef> threads) {
        // only the few keys with an owner known by id are re-keyed (a copy of every key cost a second
        // map as big as the first: millions of keys in a convoy of thousands of threads)
        Map<Key, Sum> resolved = new HashMap<>();
        contentions.forEach((k, s) -> {
            if (k.ownerTid() != 0) {
                ThreadRef known = threads.get(k.ownerTid());
                Key key = known == null ? k
                        : new Key(k.lock(), k.waiter(), k.frames(), Cause.threadOnly(known), k.afterWait(), 0, k.span());
                resolved.computeIfAbsent(key, x -> new Sum()).add(s);
            }
        });
        List<Contention> c = new ArrayList<>(contentions.size());
        contentions.forEach((k, s) -> {
            if (k.ownerTid() == 0) {
                Sum renamed = resolved.remove(k); // a key that an owner resolved by id became
                if (renamed != null) {
                    renamed.add(s);
                }
                addContention(c, k, renamed == null ? s : renamed);
            }
        });
        resolved.forEach((k, s) -> addContention(c, k, s));
        c.sort(CONTENTION_ORDER);
        List<WaitRecord> w = new ArrayList<>(waits.size());
        waits.forEach((k, s) -> w.add(new WaitRecord(k.lock(), k.waiter(), k.frames(), k.notifier(), k.notifierTookIn(), s.count(), s.nanos(),
                s.timedOut, s.firstBegin, s.firstNanos)));
        w.sort(WAIT_ORDER);
        // read once, at the recording's end: the sums are in the result now, and keeping a second
        // copy of every key alive while the report is built doubled the heap a real recording needs
        contentions.clear();
        waits.clear();
        keptObjects.clear();
        objectsAtPlace.clear();
        siteOfStack.clear();
        return new BlameResult(c, w);
    }
}
