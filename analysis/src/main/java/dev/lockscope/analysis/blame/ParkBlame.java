package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.LockKey;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.Unpark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Dispatches the parks and unparks of a recording, in time order, to one analyzer per blocker
 * class. Only the parks open now are kept: each with the hand-offs of its blocker seen since it began
 * and the unpark that woke it. The reader pairs each park's begin with its end and a thread has one
 * park open at a time, so an open park is found by its thread.
 */
final class ParkBlame {
    /**
     * Hand-offs kept per open park before the oldest is turned into a span. A hand-off is kept
     * until the park ends because a span ends at min(hand-off, park end); one that many hand-offs
     * old lies before the park's end in any real recording.
     */
    static final int HANDOFFS_KEPT = 64;

    /** A park in progress. */
    static final class OpenPark {
        final ParkWait park;
        final LockId lock;
        final BlockerAnalyzer analyzer;
        private final Blocker blocker;
        /** Whether the waiter is re-acquiring the lock after {@code Condition.await}. */
        final boolean afterWait;
        /** Where the part of the wait not yet turned into spans begins. */
        long cursor;
        final List<Handoff> handoffs = new ArrayList<>();
        /**
         * The unpark that woke this park: the first recorded unpark of its thread numbered after the
         * thread's hand-off number at park (beginSeq &lt; seq; the waker is numbered beginSeq + 1).
         */
        Unpark waker;

        OpenPark(ParkWait park, Blocker blocker, boolean afterWait) {
            this.park = park;
            this.lock = blocker.lock;
            this.analyzer = blocker.analyzer;
            this.blocker = blocker;
            this.afterWait = afterWait;
            this.cursor = park.beginNanos();
        }
    }

    /** A blocker of the recording: its id and analyzer, worked out once, and the parks open on it now, by thread id. */
    private static final class Blocker {
        final LockId lock;
        final BlockerAnalyzer analyzer;
        final Map<Long, OpenPark> open = new LinkedHashMap<>();

        Blocker(String blockerClass, int blockerHash) {
            lock = LockId.blocker(blockerClass, blockerHash);
            analyzer = BlockerAnalyzer.forClass(blockerClass);
        }
    }

    private final BlameCollector out;
    private final HandoffHolds holds;
    private final Map<LockKey, Blocker> blockers = new HashMap<>();
    private final Map<Long, OpenPark> openByThread = new LinkedHashMap<>();
    /**
     * What the frame text of a call chain says, by chain: the reader interns chains, so each distinct
     * chain is read once (identity keys: a chain that is not interned is only read again).
     */
    private final Map<List<String>, Boolean> afterWaitByChain = new IdentityHashMap<>();
    private final Map<BlockerAnalyzer, Map<List<String>, Boolean>> handsOverByChain = new IdentityHashMap<>();

    ParkBlame(BlameCollector out, HandoffHolds holds) {
        this.out = out;
        this.holds = holds;
    }

    /** Exclusive locks, whose hand-offs give hold times: a ReentrantLock's sync (not a read-write lock's). */
    private static boolean exclusive(LockId lock) {
        return lock.lockClass().startsWith("java.util.concurrent.locks.ReentrantLock$");
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
        blocker.open.put(tid, open);
        openByThread.put(tid, open);
        if (exclusive(open.lock)) {
            holds.waitsAgain(open.lock, p.thread());
        }
    }

    void unpark(Unpark u) {
        OpenPark target = openByThread.get(u.targetTid());
        if (target != null && target.waker == null && target.park.beginSeq() < u.seq()) {
            target.waker = u;
        }
        Blocker blocker = blockers.get(new LockKey(u.blockerClass(), u.blockerHash()));
        if (ReleaseBlameAnalyzer.isRelease(u)) {
            LockId lock = blocker != null ? blocker.lock : LockId.blocker(u.blockerClass(), u.blockerHash());
            if (exclusive(lock)) {
                holds.handedOn(lock, u.thread(), u.timeNanos());
            }
        }
        if (blocker == null || blocker.open.isEmpty() || !handsOver(blocker.analyzer, u)) {
            return;
        }
        Handoff handoff = new Handoff(u.timeNanos(), new Cause(u.thread(), u.frames(), OwnerChain.EXACT));
        for (OpenPark p : blocker.open.values()) {
            if (p.park.beginNanos() <= u.timeNanos()) { // hand-off numbers are per thread: compare times
                p.handoffs.add(handoff);
                if (p.handoffs.size() > HANDOFFS_KEPT) {
                    spanToOldestHandoff(p);
                }
            }
        }
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

    /** Blames the wait up to its oldest kept hand-off, as {@link WaitSplitter} would at the park's end. */
    private void spanToOldestHandoff(OpenPark p) {
        Handoff h = p.handoffs.remove(0);
        if (h.releaseNanos() > p.cursor) {
            out.contention(p.lock, p.park.thread(), p.park.frames(), p.cursor, h.releaseNanos() - p.cursor, h.cause(),
                    p.afterWait);
            p.cursor = h.releaseNanos();
        }
    }

    void parkEnd(ParkWait ended) {
        long tid = ended.thread().javaTid();
        OpenPark p = openByThread.remove(tid);
        if (p == null) {
            return; // not a park this analysis saw begin
        }
        p.blocker.open.remove(tid);
        p.analyzer.parkEnded(p, ended, ended.endNanos(), out);
        if (exclusive(p.lock) && p.waker != null && ReleaseBlameAnalyzer.isRelease(p.waker)
                && LockId.blocker(p.waker.blockerClass(), p.waker.blockerHash()).equals(p.lock)) {
            holds.handedTo(p.lock, ended.thread(), ended.endNanos()); // woken by a release: it takes the lock now
        }
    }

    /** Parks still open when the recording stopped end with it; nothing woke them. */
    void finish(RecordingInfo info) {
        for (OpenPark p : openByThread.values()) {
            p.waker = null;
            p.analyzer.parkEnded(p, p.park, Math.max(info.endNanos(), p.park.beginNanos()), out);
        }
        openByThread.clear();
        blockers.values().forEach(b -> b.open.clear());
    }
}
