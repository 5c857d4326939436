package dev.lockscope.analysis.blame;

import dev.lockscope.core.JucLocks;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.LockKey;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;
import dev.lockscope.analysis.model.VirtualThreads;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Dispatches the parks and unparks of a recording, in time order, to one analyzer per blocker
 * class. Only the parks open now are kept, each with the unpark that woke it. The reader pairs each
 * park's begin with its end and a thread has one park open at a time, so an open park is found by
 * its thread.
 *
 * <p>A hand-off (a release of a {@code ReentrantLock}) splits every park open on its lock there:
 * the part since the previous hand-off (or since the park began) is blamed on the releasing owner
 * (Hofer Fig. 4.4 and 4.6), the part after the last one on the analyzer's tail. A park split
 * once waits from the lock's previous hand-off to this one, like every other park split before, so
 * their spans differ only in the waiter: while at most {@link #EXACT_WAITERS} of them are open on the
 * lock each is blamed apart; beyond that, once per group of waiters that share pool, chain and
 * after-wait flag ({@link ConvoyWaiters}). A convoy of N threads then costs O(N) spans, not N²/2.
 */
final class ParkBlame {
    /**
     * Parks split by an earlier hand-off blamed one by one at a hand-off; more are blamed per group.
     * As many as the contended enters kept per monitor ({@link MonitorOwnerChains#ENTERS_KEPT}).
     */
    static final int EXACT_WAITERS = 256;

    /** A park in progress. */
    static final class OpenPark {
        final ParkWait park;
        final LockId lock;
        final BlockerAnalyzer analyzer;
        private final Blocker blocker;
        /** Whether the waiter is re-acquiring the lock after {@code Condition.await}. */
        final boolean afterWait;
        /**
         * Where the part of the wait not yet turned into spans begins: the park's begin until a
         * hand-off splits it, then its lock's latest hand-off (set when the park ends).
         */
        long cursor;
        /** Its group once a hand-off split it; null before. */
        private WaiterGroup group;
        /**
         * The unpark that woke this park: the first recorded unpark of its thread numbered after the
         * thread's hand-off number at park (beginSeq &lt; seq; the waker is numbered beginSeq + 1).
         */
        Unpark waker;
        /**
         * The waker's own latest wait on this lock before it woke this park, when it is a condition's: where the
         * waker took what it then gave back (a pool's borrower, before it returned the object); empty when none.
         */
        List<String> wakerTookIn = List.of();

        OpenPark(ParkWait park, Blocker blocker, boolean afterWait) {
            this.park = park;
            this.lock = blocker.lock;
            this.analyzer = blocker.analyzer;
            this.blocker = blocker;
            this.afterWait = afterWait;
            this.cursor = park.beginNanos();
        }
    }

    /** Waiters whose spans differ in nothing the blame keeps but the thread (and weight: see ParkWait#weight). */
    private record WaiterGroup(ThreadRef standIn, List<String> frames, boolean afterWait, double weight) {
    }

    /** A blocker of the recording: its id and analyzer, worked out once, and the parks open on it now. */
    private static final class Blocker {
        final LockId lock;
        final BlockerAnalyzer analyzer;
        /** Parks no hand-off split yet, by thread id. */
        final Map<Long, OpenPark> unsplit = new LinkedHashMap<>();
        /** Parks split at least once, by thread id: each waits since {@link #lastHandoff}. */
        final Map<Long, OpenPark> split = new LinkedHashMap<>();
        /** How many of {@link #split} are in each group. */
        final Map<WaiterGroup, long[]> splitByGroup = new HashMap<>();
        long lastHandoff = Long.MIN_VALUE;

        Blocker(String blockerClass, int blockerHash) {
            lock = LockId.blocker(blockerClass, blockerHash);
            analyzer = BlockerAnalyzer.forClass(blockerClass);
        }

        boolean noneOpen() {
            return unsplit.isEmpty() && split.isEmpty();
        }
    }

    private final BlameCollector out;
    private final HandoffHolds holds;
    /** Split parks blamed one by one at a hand-off; more on one lock are blamed per group. */
    private final int exactWaiters;
    private final Map<LockKey, Blocker> blockers = new HashMap<>();
    private final Map<Long, OpenPark> openByThread = new LinkedHashMap<>();
    /** Per thread, its latest ended park on a condition: the lock and the park's frames (bounded by threads). */
    private final Map<Long, Map.Entry<LockId, List<String>>> lastConditionWait = new HashMap<>();
    /**
     * What the frame text of a call chain says, by chain: the reader interns chains, so each distinct
     * chain is read once (identity keys: a chain that is not interned is only read again).
     */
    private final Map<List<String>, Boolean> afterWaitByChain = new IdentityHashMap<>();
    private final Map<BlockerAnalyzer, Map<List<String>, Boolean>> handsOverByChain = new IdentityHashMap<>();

    /** What each thread was recorded doing (its samples and waits): what a releaser did inside its hold. */
    private final MonitorOwnerChains activities;

    /**
     * A lock's release whose spans wait until what the releaser did inside its hold can be looked up: JFR's own
     * events (samples, sleeps, I/O) come through a reorder window of their own, after lockscope's unparks.
     */
    private static final class PendingRelease {
        final Unpark release;
        final long from;
        final List<HeldSpan> spans;
        /** Blamed already (by its releaser's queue); still held until it reaches the front of the oldest-first one. */
        boolean blamed;

        PendingRelease(Unpark release, long from, List<HeldSpan> spans) {
            this.release = release;
            this.from = from;
            this.spans = spans;
        }
    }

    /** A span of a wait that a release ended; {@code group}: {@code count} waiters of a convoy's group. */
    private record HeldSpan(LockId lock, ThreadRef waiter, List<String> frames, long from, long nanos, long count,
                            boolean group, boolean afterWait, double weight) {
    }

    /**
     * Spans held at most, of releases pending or blamed but still behind an older pending one: past it the oldest
     * release is blamed with what is known of its releaser then. As many as the reader's reorder window holds
     * events (the lag between lockscope's and JFR's events is at most about one window); 4× as many no longer fit
     * BoundedHeapIT's 64 MB with everything else the report keeps.
     */
    static final int PENDING_SPANS = 1 << 14;
    /** Releases pending, oldest first; each also in its releaser's queue, and done when emitted by either. */
    private final ArrayDeque<PendingRelease> pending = new ArrayDeque<>();
    private final Map<Long, ArrayDeque<PendingRelease>> pendingByReleaser = new HashMap<>();
    /** The spans of the releases in {@link #pending}, blamed or not: what this holds in memory. */
    private int heldSpans;

    /**
     * @param exactWaiters a test's limit ({@link Integer#MAX_VALUE}: every span apart, N²/2 in a convoy)
     * @param activities   the threads' recorded samples and waits, shared with the monitors' blame
     */
    ParkBlame(BlameCollector out, HandoffHolds holds, int exactWaiters, MonitorOwnerChains activities) {
        this.out = out;
        this.holds = holds;
        this.exactWaiters = exactWaiters;
        this.activities = activities;
    }

    /**
     * {@code thread} was recorded doing something that ended at {@code endNanos}: its releases before then have all
     * their own evidence read (JFR's events come in end order), so they are blamed now.
     */
    void activityEnded(ThreadRef thread, long endNanos) {
        ArrayDeque<PendingRelease> mine = pendingByReleaser.get(thread.javaTid());
        while (mine != null && !mine.isEmpty() && mine.peekFirst().release.timeNanos() < endNanos) {
            emit(mine.removeFirst());
        }
        if (mine != null && mine.isEmpty()) {
            pendingByReleaser.remove(thread.javaTid());
        }
    }

    /** Exclusive locks, whose hand-offs give hold times ({@link JucLocks#isExclusive}). */
    private static boolean exclusive(LockId lock) {
        return JucLocks.isExclusive(lock.lockClass());
    }

    private Blocker blocker(String blockerClass, int blockerHash) {
        Blocker b = blockers.get(new LockKey(blockerClass, blockerHash));
        if (b == null) {
            b = new Blocker(blockerClass, blockerHash);
            blockers.put(new LockKey(blockerClass, blockerHash), b);
        }
        return b;
    }

    void parkBegin(ParkWait p) {
        Blocker blocker = blocker(p.blockerClass(), p.blockerHash());
        OpenPark open = new OpenPark(p, blocker,
                afterWaitByChain.computeIfAbsent(p.frames(), ConditionWaitAnalyzer::reacquiresAfterAwait));
        long tid = p.thread().javaTid();
        OpenPark replaced = blocker.split.containsKey(tid) ? blocker.split.get(tid) : blocker.unsplit.get(tid);
        if (replaced != null) {
            close(replaced); // a thread parks once at a time: its park on this blocker that has not ended yet is over
        }
        blocker.unsplit.put(tid, open);
        openByThread.put(tid, open);
        if (exclusive(open.lock)) {
            holds.waitsAgain(open.lock, p.thread());
        }
    }

    void unpark(Unpark u) {
        OpenPark target = openByThread.get(u.targetTid());
        if (target != null && target.waker == null && target.park.beginSeq() < u.seq()) {
            target.waker = u;
            Map.Entry<LockId, List<String>> took = lastConditionWait.get(u.thread().javaTid());
            if (took != null && took.getKey().equals(target.lock)) {
                target.wakerTookIn = took.getValue();
            }
        }
        Blocker blocker = blockers.get(new LockKey(u.blockerClass(), u.blockerHash()));
        if (handsOver(ReleaseBlameAnalyzer.INSTANCE, u)) {
            LockId lock = blocker != null ? blocker.lock : LockId.blocker(u.blockerClass(), u.blockerHash());
            if (exclusive(lock)) {
                holds.handedOn(lock, u.thread(), u.timeNanos(), u.unrecordedBefore());
            }
        }
        if (blocker == null || blocker.noneOpen() || !handsOver(blocker.analyzer, u)) {
            return;
        }
        handOff(blocker, u);
    }

    private boolean handsOver(BlockerAnalyzer analyzer, Unpark u) {
        Map<List<String>, Boolean> byChain = handsOverByChain.computeIfAbsent(analyzer, a -> new IdentityHashMap<>());
        Boolean handsOver = byChain.get(u.frames());
        if (handsOver == null) {
            handsOver = analyzer.handsOver(u);
            byChain.put(u.frames(), handsOver);
        }
        return handsOver;
    }

    /**
     * The releaser of {@code release} held the lock until then: every park open on it since then is blamed on
     * it up to there. Parks split before wait from the previous hand-off, one span each (per group beyond
     * {@link #exactWaiters}); the others from their own begin. A lock's release ({@link ReleaseBlameAnalyzer})
     * is blamed once what its releaser did inside the hold is known ({@link #activityEnded}).
     */
    private void handOff(Blocker b, Unpark release) {
        long at = release.timeNanos();
        List<HeldSpan> spans = new ArrayList<>();
        long earliest = Long.MAX_VALUE;
        if (at > b.lastHandoff && !b.split.isEmpty()) {
            long from = b.lastHandoff;
            earliest = from;
            if (b.split.size() <= exactWaiters) {
                for (OpenPark p : b.split.values()) {
                    spans.add(new HeldSpan(p.lock, p.park.thread(), p.park.frames(), from, at - from, 1, false, p.afterWait,
                            p.park.weight()));
                }
            } else {
                b.splitByGroup.forEach((g, n) -> spans.add(new HeldSpan(b.lock, g.standIn(), g.frames(), from, at - from, n[0],
                        true, g.afterWait(), g.weight())));
            }
        }
        for (Iterator<OpenPark> it = b.unsplit.values().iterator(); it.hasNext(); ) {
            OpenPark p = it.next();
            long begin = p.park.beginNanos();
            if (begin <= at) { // hand-off numbers are per thread: compare times
                spans.add(new HeldSpan(p.lock, p.park.thread(), p.park.frames(), begin, at - begin, 1, false, p.afterWait,
                        p.park.weight()));
                earliest = Math.min(earliest, begin);
                it.remove();
                p.group = new WaiterGroup(ConvoyWaiters.of(VirtualThreads.poolOf(p.park.thread(), p.park.frames())),
                        p.park.frames(), p.afterWait, p.park.weight());
                b.split.put(p.park.thread().javaTid(), p);
                b.splitByGroup.computeIfAbsent(p.group, g -> new long[1])[0]++;
            }
        }
        b.lastHandoff = Math.max(b.lastHandoff, at);
        if (spans.isEmpty()) {
            return;
        }
        PendingRelease r = new PendingRelease(release, earliest, spans);
        if (b.analyzer != ReleaseBlameAnalyzer.INSTANCE) {
            emit(r, List.of());
            return;
        }
        pending.addLast(r);
        pendingByReleaser.computeIfAbsent(release.thread().javaTid(), k -> new ArrayDeque<>()).addLast(r);
        heldSpans += spans.size();
        while (heldSpans > PENDING_SPANS) {
            emit(pending.peekFirst());
        }
    }

    /** Blames a pending release's spans, with what its releaser mostly did inside the hold as far as it is known now. */
    private void emit(PendingRelease r) {
        if (r.blamed) {
            return;
        }
        r.blamed = true;
        emit(r, activities.mostlyInside(r.release.thread(), r.release.frames(), r.from, r.release.timeNanos()));
        // the two queues let go of it in their own time: drop it from the front of the oldest-first one here
        while (!pending.isEmpty() && pending.peekFirst().blamed) {
            PendingRelease done = pending.removeFirst();
            heldSpans -= done.spans.size();
            ArrayDeque<PendingRelease> mine = pendingByReleaser.get(done.release.thread().javaTid());
            if (mine != null && mine.peekFirst() == done) {
                mine.removeFirst();
            }
            if (mine != null && mine.isEmpty()) {
                pendingByReleaser.remove(done.release.thread().javaTid());
            }
        }
    }

    private void emit(PendingRelease r, List<String> inside) {
        Cause cause = new Cause(r.release.thread(), r.release.frames(), OwnerChain.EXACT, inside);
        for (HeldSpan s : r.spans) {
            out.weighting(s.weight());
            if (s.group()) {
                out.contentions(s.lock(), s.waiter(), s.frames(), s.from(), s.nanos(), s.count(), cause, s.afterWait());
            } else {
                out.contention(s.lock(), s.waiter(), s.frames(), s.from(), s.nanos(), cause, s.afterWait());
            }
        }
        out.weighting(1);
    }

    /** Takes an open park off its blocker; a split one's unblamed part begins at the lock's latest hand-off. */
    private static void close(OpenPark p) {
        Blocker b = p.blocker;
        long tid = p.park.thread().javaTid();
        if (b.unsplit.remove(tid) == null && b.split.remove(tid) != null) {
            p.cursor = b.lastHandoff;
            long[] n = b.splitByGroup.get(p.group);
            if (--n[0] == 0) {
                b.splitByGroup.remove(p.group);
            }
        }
    }

    void parkEnd(ParkWait ended) {
        long tid = ended.thread().javaTid();
        OpenPark p = openByThread.remove(tid);
        if (p == null) {
            return; // not a park this analysis saw begin
        }
        close(p);
        out.weighting(p.park.weight());
        p.analyzer.parkEnded(p, ended, ended.endNanos(), out);
        out.weighting(1);
        if (p.analyzer == ConditionWaitAnalyzer.INSTANCE) {
            lastConditionWait.put(tid, Map.entry(p.lock, ended.frames()));
        }
        if (exclusive(p.lock) && p.waker != null && handsOver(ReleaseBlameAnalyzer.INSTANCE, p.waker)
                && p.waker.blockerHash() == ended.blockerHash() && p.waker.blockerClass().equals(ended.blockerClass())) {
            // woken by a release: it takes the lock now
            holds.handedTo(p.lock, ended.thread(), ended.endNanos(), ended.unrecordedUnparks());
        }
    }

    /** Parks still open when the recording stopped end with it; nothing woke them. */
    void finish(RecordingInfo info) {
        for (OpenPark p : openByThread.values()) {
            close(p);
            p.waker = null;
            out.weighting(p.park.weight());
            p.analyzer.parkEnded(p, p.park, Math.max(info.endNanos(), p.park.beginNanos()), out);
            out.weighting(1);
        }
        openByThread.clear();
        while (!pending.isEmpty()) {
            emit(pending.peekFirst());
        }
        pendingByReleaser.clear();
    }
}
