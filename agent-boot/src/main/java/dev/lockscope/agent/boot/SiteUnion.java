package dev.lockscope.agent.boot;

import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockSites;
import dev.lockscope.core.ParkTally;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The real-time of one lock site in the agent's table: the time at least one of its blockers had a
 * thread parked on it, the union of their waiting intervals, as {@code lockscope report} measures a
 * site from the recorded parks ({@link LockSites#group(List, long, java.util.Map)}). Summing the
 * objects' own real-times instead counts the time two of them were waited for at once twice, and a
 * site of many objects read 203% real.
 *
 * <p>Concurrency: a blocker is linked to its site once, by the park that starts its collection
 * ({@link BlockerRecord#park}). A linked blocker tells its site only of its own busy periods: the park
 * that takes the blocker's parked-now count from 0 to 1 counts one more object waited for here, the
 * park end that takes it back to 0 one less. So a park on a blocker that already has a thread parked,
 * the common case under contention, writes nothing here; each transition is one atomic add on
 * {@link #objectsWaitedFor}, and the site's own 0-to-1 and 1-to-0 transitions write its period as a
 * blocker's do. That add is shared by the threads parking on the site's different objects (a thread per
 * blocker parking on its own, from one place, transitions on every park: bench's parkOwnBlocker); an
 * exact union of intervals from several threads needs the one counter. Nothing is allocated after the link. Sites are kept for the agent's life (a program has
 * few acquiring places), each charged to the registry's byte bound; a site that does not fit is not
 * linked, and the table sums its objects' real-times as before.
 */
public final class SiteUnion {
    /** What one site costs beyond its key's characters: the object, the key string, the map node. */
    static final long SITE_BYTES = 160;

    private static final VarHandle OBJECTS_WAITED_FOR;
    private static final VarHandle REAL_TIME;
    private static final VarHandle COLLECTED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            OBJECTS_WAITED_FOR = l.findVarHandle(SiteUnion.class, "objectsWaitedFor", int.class);
            REAL_TIME = l.findVarHandle(SiteUnion.class, "realTimeNanos", long.class);
            COLLECTED = l.findVarHandle(SiteUnion.class, "collected", CollectedTally.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final long[] NONE_OPEN = new long[0];
    private static final ConcurrentHashMap<String, SiteUnion> SITES = new ConcurrentHashMap<>();
    private static final AtomicLong BYTES = new AtomicLong();

    /** The site's row key in every table ({@link LockSites#keyOf}). */
    public final String key;
    /** Blockers of this site with a thread parked on them now. */
    private volatile int objectsWaitedFor;
    /**
     * Start of the current period with an object waited for: written by the transition of
     * {@link #objectsWaitedFor} from 0 to 1, after its add, and read by the one back to 0 (whose add
     * follows in the counter's modification order), as {@link BlockerRecord}'s busy period.
     */
    private volatile long busySince;
    private volatile long realTimeNanos;
    /** The final tallies of this site's blockers the registry dropped once the GC collected them, or null. */
    private volatile CollectedTally collected;

    private SiteUnion(String key) {
        this.key = key;
    }

    /**
     * The site of a blocker of this class first parked on with these frames (innermost first), as the
     * table will key its row; null when a new site does not fit the registry's byte bound. Called once
     * per blocker.
     */
    static SiteUnion of(String className, String[] firstFrames) {
        List<String> frames = firstFrames == null ? List.of() : Arrays.asList(firstFrames);
        String key = LockSites.keyOf(LockKind.PARK, className, LockSites.siteOf(frames));
        SiteUnion known = SITES.get(key);
        if (known != null) {
            return known;
        }
        long bytes = SITE_BYTES + 2L * key.length();
        if (!BlockerRegistry.fits(bytes)) {
            return null;
        }
        SiteUnion fresh = new SiteUnion(key);
        SiteUnion raced = SITES.putIfAbsent(key, fresh);
        if (raced != null) {
            return raced;
        }
        BYTES.addAndGet(bytes);
        return fresh;
    }

    /**
     * A linked blocker went from no thread parked to one at {@code now} (its own clock reading: no second one
     * here; two periods of the site that follow each other may then overlap by the few nanoseconds between a
     * blocker's reading and its add below, which the table's clamp to the objects' sum bounds).
     */
    void objectWaitedFor(long now) {
        int before = (int) OBJECTS_WAITED_FOR.getAndAdd(this, 1);
        if (before == 0) {
            busySince = now;
        }
    }

    /** A linked blocker went from one thread parked to none at {@code now}. */
    void objectFree(long now) {
        int before = (int) OBJECTS_WAITED_FOR.getAndAdd(this, -1);
        if (before == 1) {
            long from = busySince;
            if (now > from) {
                REAL_TIME.getAndAdd(this, now - from);
            }
        }
    }

    /**
     * The real-time so far; a period still going on counts up to {@code upTo} (the last event of the
     * site's objects, as an object's own open period counts up to its last event).
     */
    long realTimeNanos(long upTo) {
        long real = realTimeNanos;
        long from = busySince;
        if (objectsWaitedFor > 0 && upTo > from) {
            real += upTo - from;
        }
        return real;
    }

    /**
     * Adds the final tally of a blocker of this site that the registry dropped ({@link BlockerRegistry}: the GC
     * collected it), once per blocker. Lock-free: dropping happens on the path of a first park on a new
     * blocker, in any thread, and a fresh lock per request drops one per request.
     */
    void addCollected(BlockerRecord r) {
        ParkTally t = r.snapshot(NONE_OPEN); // nobody is parked on a collected blocker: it would be reachable
        if (!t.collecting || t.timesParked == 0) {
            return;
        }
        CollectedTally before;
        do {
            before = collected;
        } while (!COLLECTED.compareAndSet(this, before, before == null ? CollectedTally.of(r, t) : before.plus(r, t)));
    }

    /** The dropped blockers' tallies, or null when none was dropped. */
    CollectedTally collected() {
        return collected;
    }

    /** Every site. */
    static Iterable<SiteUnion> all() {
        return SITES.values();
    }

    /** Drops a site no row will show (the agent's own warm-up blocker's). */
    static void forget(SiteUnion site) {
        if (site != null && SITES.remove(site.key, site)) {
            BYTES.addAndGet(-(SITE_BYTES + 2L * site.key.length()));
        }
    }

    static long bytesInUse() {
        return BYTES.get();
    }
}
