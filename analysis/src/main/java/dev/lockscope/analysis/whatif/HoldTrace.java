package dev.lockscope.analysis.whatif;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.LockKey;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;
import dev.lockscope.analysis.scale.LayerClassifier;
import dev.lockscope.core.LockKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collects, in the one pass over a recording, what the what-if replay needs: for every thread, when it
 * asked for each lock, when it got it and when it let it go. It takes the waits as the reader pairs
 * them (a park's begin and end, a monitor entry) and the releases as owner blame sees them (the
 * releasing thread's {@code Unpark} of a {@code java.util.concurrent} lock; a monitor's
 * {@code previousOwner} at the end of the next waiter's entry), and pairs each thread's acquisitions
 * with its releases per lock at {@link #finish}.
 *
 * <p>What a recording cannot show is estimated: an acquisition nobody waited for is not recorded, so
 * a release with no acquisition before it began one typical hold earlier (the median of the lock's
 * holds seen whole), and a release nobody waited for ends one typical hold after the acquisition.
 * Holds of a lock never seen whole are therefore invisible (zero long): a lock is modelled only as far
 * as it was contended.
 *
 * <p>Modelled locks: monitors, and {@code java.util.concurrent} blockers that had an exclusive owner
 * when a thread parked on them ({@code ReentrantLock}, a write lock). Semaphores, latches, conditions
 * and queues have no single holder; their waits stay in the replay as recorded (work that does not change).
 *
 * <p>Bounded: at most {@link #MAX_POINTS} acquisitions and releases are kept; past them the trace ends
 * at the earliest time that was dropped, and {@link LockTrace#truncated()} says so.
 */
public final class HoldTrace implements RecordingVisitor {
    /**
     * Acquisitions and releases kept at most (about 60 bytes each): a replay sorts and simulates them all,
     * and the report's table replays the trace 5 times per lock, so this bounds its time too.
     */
    static final int MAX_POINTS = 1 << 19;
    /**
     * Two parks of a thread on one lock this close, with no release of it between, are one acquisition:
     * a woken waiter that lost the lock to a barging thread parks again at once.
     */
    static final long REPARK_NANOS = 1_000_000;

    private static final LayerClassifier LAYERS = LayerClassifier.defaults();

    /** One acquisition ({@code grant >= request}) or release ({@code request == grant == time}) of one thread. */
    private record Point(int lock, boolean acquire, long request, long grant, String site, boolean lateRelease) {
        Point(int lock, boolean acquire, long request, long grant, String site) {
            this(lock, acquire, request, grant, site, false);
        }

        long time() {
            return request;
        }
    }

    /**
     * Each lock's index, blockers and monitors apart, by a {@link LockKey}: looked up per event, so not by
     * {@link LockId}, whose hex id would be formatted for every event (a tenth of this trace's time).
     */
    private final Map<LockKey, Integer> blockerIndex = new HashMap<>();
    private final Map<LockKey, Integer> monitorIndex = new HashMap<>();
    private final List<LockId> locks = new ArrayList<>();
    private final Set<Integer> ownedBlockers = new HashSet<>();
    private final Map<Long, List<Point>> pointsByThread = new HashMap<>();
    private final Map<Long, ThreadRef> threads = new HashMap<>();
    private int points;
    private final Map<List<String>, String> siteByStack = new IdentityHashMap<>();
    private long droppedFrom = Long.MAX_VALUE;
    private LockTrace result;

    @Override
    public void parkEnd(ParkWait p) {
        int lock = blocker(p.blockerClass(), p.blockerHash());
        if (p.ownerTid() != 0) {
            ownedBlockers.add(lock);
        }
        add(p.thread(), new Point(lock, true, p.beginNanos(), p.endNanos(), site(p.frames())));
    }

    @Override
    public void unpark(Unpark u) {
        int lock = blocker(u.blockerClass(), u.blockerHash());
        add(u.thread(), new Point(lock, false, u.timeNanos(), u.timeNanos(), site(u.frames())));
    }

    @Override
    public void monitorEnter(MonitorEnter e) {
        int lock = monitor(e.monitorClass(), e.address());
        add(e.thread(), new Point(lock, true, e.beginNanos(), e.endNanos(), site(e.frames())));
        ThreadRef owner = e.previousOwner();
        if (owner != null && owner.javaTid() > 0) {
            // the next owner's entry ends after the release by its wake-up: a late release
            add(owner, new Point(lock, false, e.endNanos(), e.endNanos(), null, true));
        }
    }

    private int blocker(String blockerClass, int identityHash) {
        return index(blockerIndex, new LockKey(blockerClass, identityHash), LockKind.PARK);
    }

    private int monitor(String monitorClass, long address) {
        return index(monitorIndex, new LockKey(monitorClass, address), LockKind.MONITOR);
    }

    /** The lock's index, its {@link LockId} made the first time it is seen. */
    private int index(Map<LockKey, Integer> byKey, LockKey key, LockKind kind) {
        Integer index = byKey.get(key);
        if (index == null) {
            index = locks.size();
            locks.add(kind == LockKind.MONITOR ? LockId.monitor(key.className(), key.identity())
                    : LockId.blocker(key.className(), (int) key.identity()));
            byKey.put(key, index);
        }
        return index;
    }

    /** The site of a point, once per distinct stack (the reader hands out one list per stack). */
    private String site(List<String> frames) {
        if (frames == null || points >= MAX_POINTS) {
            return null; // past the cap the point is dropped, its site never read
        }
        return siteByStack.computeIfAbsent(frames, f -> LAYERS.firstUserFrame(f).orElse(f.isEmpty() ? null : f.get(0)));
    }

    private void add(ThreadRef thread, Point p) {
        if (thread == null || thread.javaTid() <= 0) {
            return;
        }
        if (points >= MAX_POINTS) {
            droppedFrom = Math.min(droppedFrom, p.time());
            return;
        }
        points++;
        threads.putIfAbsent(thread.javaTid(), thread);
        pointsByThread.computeIfAbsent(thread.javaTid(), k -> new ArrayList<>()).add(p);
    }

    @Override
    public void finish(RecordingInfo info) {
        long end = Math.min(info.endNanos(), droppedFrom);
        boolean[] modelled = new boolean[locks.size()], monitor = new boolean[locks.size()];
        for (int i = 0; i < modelled.length; i++) {
            monitor[i] = locks.get(i).kind() == LockKind.MONITOR;
            modelled[i] = monitor[i] || ownedBlockers.contains(i);
        }
        // pass 1: pair each thread's points into holds, some ends still unknown
        List<Long> tids = new ArrayList<>(pointsByThread.keySet());
        tids.sort(Comparator.naturalOrder());
        List<List<MutableHold>> holdsByThread = new ArrayList<>();
        List<ThreadRef> threadRefs = new ArrayList<>();
        for (long tid : tids) {
            List<Point> ps = pointsByThread.get(tid);
            ps.removeIf(p -> p.time() >= end || !modelled[p.lock()]);
            ps.sort(Comparator.comparingLong(Point::time).thenComparing(p -> p.acquire()));
            moveLateReleasesBeforeTheNextRequest(ps);
            List<MutableHold> holds = pair(ps, monitor, info.startNanos(), end);
            if (!holds.isEmpty()) {
                holdsByThread.add(holds);
                threadRefs.add(info.threads().getOrDefault(tid, threads.get(tid)));
            }
        }
        pointsByThread.clear();
        // pass 2: the typical hold of each lock, from the holds seen whole
        long[] typical = typicalHolds(holdsByThread, locks.size());
        List<List<Hold>> out = new ArrayList<>();
        for (List<MutableHold> holds : holdsByThread) {
            List<Hold> done = new ArrayList<>(holds.size());
            for (MutableHold h : holds) {
                done.add(h.complete(typical[h.lock]));
            }
            out.add(done);
        }
        result = new LockTrace(List.copyOf(locks), threadRefs, out, info.startNanos(), end, droppedFrom != Long.MAX_VALUE);
    }

    /**
     * A monitor's release is seen when the next owner's entry ends, after the release by that owner's
     * wake-up; by then the releasing thread may have asked for its next lock. A release up to
     * {@link #REPARK_NANOS} after the thread's own request of another lock is put before that request:
     * the thread let the monitor go, then asked for the next (else the replay would have it wait for the
     * next lock while still holding the monitor, a nesting the program did not have). Likewise a release seen
     * while the thread was itself waiting for the same monitor again (asked before, got it after): a thread
     * never waits for a monitor it holds, so it had let it go before it asked (else the release would close
     * the new hold, before its own grant).
     */
    private static void moveLateReleasesBeforeTheNextRequest(List<Point> ps) {
        for (int i = 1; i < ps.size(); i++) {
            Point rel = ps.get(i);
            int j = i;
            while (rel.lateRelease() && j > 0 && ps.get(j - 1).acquire() && (ps.get(j - 1).lock() != rel.lock()
                    ? rel.time() - ps.get(j - 1).request() < REPARK_NANOS : ps.get(j - 1).grant() > rel.time())) {
                Point acq = ps.get(j - 1);
                rel = new Point(rel.lock(), false, acq.request(), acq.request(), rel.site(), true);
                ps.set(j - 1, rel);
                ps.set(j, acq);
                j--;
            }
        }
    }

    /** A hold whose acquisition or release may still have to be estimated. */
    private static final class MutableHold {
        final int lock;
        long request = Long.MIN_VALUE, grant = Long.MIN_VALUE, release = Long.MIN_VALUE;
        /** The earliest an estimated acquisition may lie, the latest an estimated release may lie. */
        long lowerBound, upperBound;
        String site;

        MutableHold(int lock) {
            this.lock = lock;
        }

        boolean whole() {
            return grant != Long.MIN_VALUE && release != Long.MIN_VALUE;
        }

        Hold complete(long typical) {
            boolean acquireSeen = grant != Long.MIN_VALUE, releaseSeen = release != Long.MIN_VALUE;
            long g = acquireSeen ? grant : Math.min(release, Math.max(lowerBound, release - typical));
            long r = releaseSeen ? release : Math.max(g, Math.min(upperBound, g + typical));
            return new Hold(lock, acquireSeen ? request : g, g, r, site, acquireSeen, releaseSeen);
        }
    }

    /**
     * One thread's points in time order into holds: an acquisition up to the next release of the same lock.
     * A park again soon after a grant is the same acquisition (a woken waiter that lost the lock to a barging
     * thread); a monitor entry never is: JFR records one entry from the first block to the grant, and a thread
     * blocks on a monitor only when it does not hold it.
     */
    private static List<MutableHold> pair(List<Point> ps, boolean[] monitor, long start, long end) {
        List<MutableHold> holds = new ArrayList<>();
        Map<Integer, MutableHold> open = new HashMap<>();
        Map<Integer, Long> lastTime = new HashMap<>();
        // An estimated end stays between the thread's neighbouring points of any lock: a hold estimated
        // to overlap the next lock the thread asks for would nest two locks the program took one after the
        // other, and the replay could deadlock on an order the program never had. (A lock held around
        // another whose own end was not seen is shortened to the inner one's start: the price of that.)
        long lastAny = start;
        List<MutableHold> awaitingNextPoint = new ArrayList<>();
        for (Point p : ps) {
            MutableHold o = open.get(p.lock());
            boolean repark = p.acquire() && o != null && !monitor[p.lock()] && p.request() - o.grant < REPARK_NANOS;
            if (!repark) {
                for (MutableHold h : awaitingNextPoint) {
                    h.upperBound = Math.min(h.upperBound, p.time());
                }
                awaitingNextPoint.clear();
            }
            if (repark) {
                o.grant = p.grant(); // parked again after losing the lock to a barging thread
            } else if (p.acquire()) {
                if (o != null) {
                    o.upperBound = Math.min(o.upperBound, p.request()); // released while nobody waited
                }
                MutableHold h = new MutableHold(p.lock());
                h.request = p.request();
                h.grant = p.grant();
                h.site = p.site();
                h.upperBound = Long.MAX_VALUE;
                open.put(p.lock(), h);
                holds.add(h);
                awaitingNextPoint.add(h);
            } else if (o != null) {
                o.release = p.time();
                if (o.site == null) {
                    o.site = p.site();
                }
                open.remove(p.lock());
            } else { // acquired while nobody held it
                MutableHold h = new MutableHold(p.lock());
                h.release = p.time();
                h.site = p.site();
                h.lowerBound = Math.max(lastAny, lastTime.getOrDefault(p.lock(), start));
                holds.add(h);
            }
            long completed = p.acquire() ? p.grant() : p.time();
            lastTime.put(p.lock(), completed);
            lastAny = Math.max(lastAny, completed);
        }
        for (MutableHold o : open.values()) {
            o.upperBound = Math.min(o.upperBound, end);
        }
        return holds;
    }

    private static long[] typicalHolds(List<List<MutableHold>> holdsByThread, int lockCount) {
        List<List<Long>> whole = new ArrayList<>();
        for (int i = 0; i < lockCount; i++) {
            whole.add(new ArrayList<>());
        }
        for (List<MutableHold> holds : holdsByThread) {
            for (MutableHold h : holds) {
                if (h.whole()) {
                    whole.get(h.lock).add(h.release - h.grant);
                }
            }
        }
        long[] typical = new long[lockCount];
        for (int i = 0; i < lockCount; i++) {
            long[] d = whole.get(i).stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(d);
            typical[i] = d.length == 0 ? 0 : d[d.length / 2];
        }
        return typical;
    }

    /** The trace; available once the recording has been read. */
    public LockTrace result() {
        if (result == null) {
            throw new IllegalStateException("the recording has not been read to its end");
        }
        return result;
    }
}
