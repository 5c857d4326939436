package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.Unpark;

import java.util.ArrayList;
import java.util.HashMap;
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
        /** Where the part of the wait not yet turned into spans begins. */
        long cursor;
        final List<Handoff> handoffs = new ArrayList<>();
        /**
         * The unpark that woke this park: the first recorded unpark of its thread numbered after the
         * thread's hand-off number at park (beginSeq &lt; seq; the waker is numbered beginSeq + 1).
         */
        Unpark waker;

        OpenPark(ParkWait park) {
            this.park = park;
            this.lock = LockId.blocker(park.blockerClass(), park.blockerHash());
            this.analyzer = BlockerAnalyzer.forClass(park.blockerClass());
            this.cursor = park.beginNanos();
        }
    }

    private final BlameCollector out;
    private final HandoffHolds holds;
    /** Open parks by lock, then by thread id. */
    private final Map<LockId, Map<Long, OpenPark>> openByLock = new HashMap<>();
    private final Map<Long, OpenPark> openByThread = new LinkedHashMap<>();

    ParkBlame(BlameCollector out, HandoffHolds holds) {
        this.out = out;
        this.holds = holds;
    }

    /** Exclusive locks, whose hand-offs give hold times: a ReentrantLock's sync (not a read-write lock's). */
    private static boolean exclusive(LockId lock) {
        return lock.lockClass().startsWith("java.util.concurrent.locks.ReentrantLock$");
    }

    void parkBegin(ParkWait p) {
        OpenPark open = new OpenPark(p);
        long tid = p.thread().javaTid();
        openByLock.computeIfAbsent(open.lock, k -> new LinkedHashMap<>()).put(tid, open);
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
        LockId lock = LockId.blocker(u.blockerClass(), u.blockerHash());
        Map<Long, OpenPark> parked = openByLock.get(lock);
        if (exclusive(lock) && ReleaseBlameAnalyzer.isRelease(u)) {
            holds.handedOn(lock, u.thread(), u.timeNanos());
        }
        if (parked == null || !BlockerAnalyzer.forClass(lock.lockClass()).handsOver(u)) {
            return;
        }
        Handoff handoff = new Handoff(u.timeNanos(), new Cause(u.thread(), u.frames(), OwnerChain.EXACT));
        for (OpenPark p : parked.values()) {
            if (p.park.beginNanos() <= u.timeNanos()) { // hand-off numbers are per thread: compare times
                p.handoffs.add(handoff);
                if (p.handoffs.size() > HANDOFFS_KEPT) {
                    spanToOldestHandoff(p);
                }
            }
        }
    }

    /** Blames the wait up to its oldest kept hand-off, as {@link WaitSplitter} would at the park's end. */
    private void spanToOldestHandoff(OpenPark p) {
        Handoff h = p.handoffs.remove(0);
        ParkWait w = p.park;
        boolean afterWait = ConditionWaitAnalyzer.reacquiresAfterAwait(w.frames());
        for (WaitSplitter.Span s : WaitSplitter.split(p.cursor, h.releaseNanos(), List.of(h), Cause.UNKNOWN)) {
            out.contention(p.lock, w.thread(), w.frames(), s.beginNanos(), s.durationNanos(), s.cause(), afterWait);
        }
        p.cursor = Math.max(p.cursor, h.releaseNanos());
    }

    void parkEnd(ParkWait ended) {
        long tid = ended.thread().javaTid();
        OpenPark p = openByThread.remove(tid);
        if (p == null) {
            return; // not a park this analysis saw begin
        }
        Map<Long, OpenPark> parked = openByLock.get(p.lock);
        parked.remove(tid);
        if (parked.isEmpty()) {
            openByLock.remove(p.lock);
        }
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
        openByLock.clear();
    }
}
