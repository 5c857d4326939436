package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import dev.lockscope.core.Frame;

import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.DeepRelease;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Intrinsic monitors, from {@code jdk.JavaMonitorEnter} and {@code jdk.JavaMonitorWait}.
 *
 * <p>JFR's {@code previousOwner} is the thread that handed the monitor to the waiter, not the owner
 * when the waiter blocked. So a wait is split at the hand-offs seen by other waiters of the same
 * monitor: another thread's contended enter that completed inside this wait says that its
 * previousOwner held the monitor until then (Fig. 4.4: T3 is blamed on T1 until T2 got the monitor,
 * then on T2). The rest of the wait is blamed on this wait's own previousOwner. Hand-offs to threads
 * that acquired without contention are not recorded and cannot be seen.
 *
 * <p>JFR records a monitor wait when it ends, so the hand-offs inside it have been seen already:
 * each monitor keeps its {@link MonitorOwnerChains#ENTERS_KEPT} latest enters, which covers any wait
 * during which fewer other threads got the monitor.
 *
 * <p>In deep mode, a wait whose holds the agent recorded one by one ({@link DeepMonitorHolds}) is split
 * at them instead, exactly ({@link OwnerChain#DEEP_EXACT}).
 */
final class MonitorBlame {
    /** A contended enter beginning this soon after the same thread's wait on the monitor ended re-acquires after it. */
    private static final long AFTER_WAIT_SLACK_NANOS = 1_000_000;
    /** Object.wait calls kept per thread to recognise re-acquiring after a wait. */
    private static final int WAITS_KEPT = 4;
    /** Spans kept for weighing later; the oldest is weighed with what is known when more wait (bounded memory). */
    static final int PENDING_KEPT = 1 << 16;
    /** Notifiers queued before a wait/notify lock's waiter followed back at most (see {@link #monitorWait}). */
    private static final int QUEUE_DEPTH = 16;
    private static final Comparator<MonitorEnter> BY_END = Comparator.comparingLong(MonitorEnter::endNanos)
            .thenComparingLong(e -> e.thread().javaTid());

    private final BlameCollector out;
    private final HandoffHolds holds;
    private final MonitorOwnerChains chains;
    private final DeepMonitorHolds deep = new DeepMonitorHolds();
    private final Map<Long, ArrayDeque<MonitorWait>> recentWaitsByThread = new HashMap<>();
    /** Spans whose owner's stacks are not all cut at a known holding method yet, oldest first. */
    private final ArrayDeque<PendingSpan> pending = new ArrayDeque<>();

    /**
     * A span weighed later ({@link #blame}), with what to blame when nothing of its evidence weighs: the
     * fallback as it stood when the span was seen.
     */
    private record PendingSpan(MonitorEnter enter, boolean afterWait, MonitorOwnerChains.Evidence evidence,
                               List<MonitorOwnerChains.Weighted> otherwise) {
    }

    /** @param chains the threads' recorded samples and waits, shared with the parks' blame */
    MonitorBlame(BlameCollector out, HandoffHolds holds, MonitorOwnerChains chains) {
        this.out = out;
        this.holds = holds;
        this.chains = chains;
    }

    static LockId lockOf(MonitorEnter e) {
        return LockId.monitor(e.monitorClass(), e.address());
    }

    void cpuSample(CpuSample s) {
        chains.sample(s.thread(), s.timeNanos(), s.frames());
    }

    /** A wait of a thread that is not on a monitor (a sleep, a park): while in it, it still holds the monitors it holds. */
    void ownWait(ThreadRef thread, long beginNanos, long endNanos, List<String> frames) {
        chains.waited(thread, beginNanos, endNanos, frames, null);
    }

    /**
     * A wait that another thread's notify ended is contention on a wait/notify lock ({@link LockId#waitOn}),
     * blamed on the notifier, the thread that released (or produced) what the waiter waited for, and
     * on what it was recorded doing ({@link #notifierCauses}). A notifier that was itself waiting on a
     * monitor of the same class during the wait (queued for the same kind of lock: a database row
     * lock's earlier waiter) held nothing then: that part is blamed on its own notifier, and so on back
     * (at most {@link #QUEUE_DEPTH} hand-offs), as a monitor wait is split at its hand-offs. Other waits
     * (timed out, nobody known) are conditional waits, kept apart.
     */
    void monitorWait(MonitorWait w) {
        ThreadRef notifier = w.notifier() == null ? ThreadRef.UNKNOWN : w.notifier();
        LockId lock = LockId.monitor(w.monitorClass(), w.address());
        if (w.isLockWait()) {
            LockId waitLock = LockId.waitOn(w.monitorClass(), w.address());
            long end = w.endNanos();
            ThreadRef owner = notifier;
            for (int handoffs = 0; end > w.beginNanos(); handoffs++) {
                MonitorWait queued = handoffs == QUEUE_DEPTH ? null : latestWaitOnClass(owner, w.monitorClass(), end);
                boolean split = queued != null && queued.endNanos() > w.beginNanos() && queued.isLockWait();
                long from = split ? queued.endNanos() : w.beginNanos();
                blame(notifierCauses(owner, waitLock, w.monitorClass(), from, end), waitLock, w.thread(), w.frames(), false,
                        from, end);
                if (!split) {
                    break;
                }
                end = from;
                owner = queued.notifier();
            }
        } else {
            out.wait(lock, w.thread(), w.frames(), w.beginNanos(), w.endNanos() - w.beginNanos(), notifier, List.of(), w.timedOut());
        }
        chains.waited(w.thread(), w.beginNanos(), w.endNanos(), w.frames(), lock);
        ArrayDeque<MonitorWait> recent = recentWaitsByThread.computeIfAbsent(w.thread().javaTid(), k -> new ArrayDeque<>());
        recent.addLast(w);
        if (recent.size() > WAITS_KEPT) {
            recent.removeFirst();
        }
    }


    /**
     * What a wait/notify lock's notifier held it in during [from, to]: what it was recorded doing then
     * ({@link MonitorOwnerChains#causesOf}); when nothing of it was recorded then, the chain of its own
     * latest wait on a monitor of the same class (where it waited for, and then took, that kind of lock).
     */
    private List<MonitorOwnerChains.Weighted> notifierCauses(ThreadRef notifier, LockId waitLock, String monitorClass,
                                                             long from, long to) {
        List<MonitorOwnerChains.Weighted> parts = chains.causesOf(notifier, waitLock, from, to);
        if (parts.size() == 1 && parts.get(0).cause().chain() == OwnerChain.NOT_RECORDED) {
            MonitorWait own = latestWaitOnClass(notifier, monitorClass, to);
            if (own != null && !own.frames().isEmpty()) {
                return List.of(new MonitorOwnerChains.Weighted(new Cause(notifier, own.frames(), OwnerChain.ACQUISITION_SITE),
                        to - from));
            }
        }
        return parts;
    }

    /** {@code thread}'s latest kept Object.wait on a monitor of {@code monitorClass} that ended by {@code notAfter}. */
    private MonitorWait latestWaitOnClass(ThreadRef thread, String monitorClass, long notAfter) {
        ArrayDeque<MonitorWait> recent = recentWaitsByThread.get(thread.javaTid());
        if (recent == null) {
            return null;
        }
        MonitorWait best = null;
        for (MonitorWait w : recent) {
            if (w.monitorClass().equals(monitorClass) && w.endNanos() <= notAfter
                    && (best == null || w.endNanos() >= best.endNanos())) {
                best = w;
            }
        }
        return best;
    }

    /** Deep mode: a release of a monitor while a thread waited for it. */
    void deepRelease(DeepRelease r) {
        deep.release(r);
    }

    /**
     * Splits the wait at the hand-offs seen by other waiters of the monitor; each piece is shared among
     * the chains its owner held the monitor in ({@link MonitorOwnerChains}).
     */
    void monitorEnter(MonitorEnter w) {
        LockId lock = lockOf(w);
        chains.enter(lock, w);
        if (w.previousOwner() != null && !w.previousOwner().equals(w.thread())) {
            holds.handedOn(lock, w.previousOwner(), w.endNanos());
        }
        holds.handedTo(lock, w.thread(), w.endNanos());
        List<DeepMonitorHolds.Piece> exact = deep.pieces(w, lock);
        if (exact != null) { // deep mode recorded every hold the waiter waited through
            boolean afterWait = reacquiresAfterWait(w, lock);
            for (DeepMonitorHolds.Piece p : exact) {
                out.contention(lock, w.thread(), w.frames(), p.from(), p.to() - p.from(), p.cause(), afterWait);
            }
            return;
        }
        List<MonitorEnter> inside = new ArrayList<>();
        for (Iterator<MonitorEnter> it = chains.latestFirst(lock); it.hasNext(); ) {
            MonitorEnter other = it.next();
            if (other.endNanos() <= w.beginNanos()) {
                break;
            }
            if (other.endNanos() < w.endNanos() && !other.thread().equals(w.thread())) {
                inside.add(other);
            }
        }
        inside.sort(BY_END);
        boolean afterWait = reacquiresAfterWait(w, lock);
        long cursor = w.beginNanos();
        for (MonitorEnter other : inside) {
            if (other.endNanos() > cursor) {
                blame(w, lock, afterWait, cursor, other.endNanos(), other.previousOwner());
                cursor = other.endNanos();
            }
        }
        if (w.endNanos() > cursor) {
            blame(w, lock, afterWait, cursor, w.endNanos(), w.previousOwner());
        }
    }

    /**
     * Blames [from, to] of the wait on {@code owner}, shared among its chains. Weighed now when every stack
     * of the owner in the span is cut at a method known to enter the monitor; otherwise later, with the
     * methods seen entering it by then ({@link #finish}, or when {@link #PENDING_KEPT} spans wait).
     */
    private void blame(MonitorEnter w, LockId lock, boolean afterWait, long from, long to, ThreadRef owner) {
        MonitorOwnerChains.Evidence seen = chains.evidence(owner, lock, from, to);
        if (seen == null) {
            share(w, lock, afterWait, from, to, chains.withoutEvidence(owner, lock, from, to));
        } else if (chains.settled(seen)) {
            List<MonitorOwnerChains.Weighted> parts = chains.weigh(seen);
            share(w, lock, afterWait, from, to, parts.isEmpty() ? chains.withoutEvidence(owner, lock, from, to) : parts);
        } else {
            pending.addLast(new PendingSpan(w, afterWait, seen, chains.withoutEvidence(owner, lock, from, to)));
            if (pending.size() > PENDING_KEPT) {
                weighPending(pending.removeFirst());
            }
        }
    }

    /** Weighs the spans still pending, with every method seen entering their monitors. */
    void finish() {
        while (!pending.isEmpty()) {
            weighPending(pending.removeFirst());
        }
    }

    private void weighPending(PendingSpan p) {
        MonitorOwnerChains.Evidence e = p.evidence();
        List<MonitorOwnerChains.Weighted> parts = chains.weigh(e);
        share(p.enter(), e.lock(), p.afterWait(), e.from(), e.to(), parts.isEmpty() ? p.otherwise() : parts);
    }

    private void share(MonitorEnter w, LockId lock, boolean afterWait, long from, long to, List<MonitorOwnerChains.Weighted> parts) {
        blame(parts, lock, w.thread(), w.frames(), afterWait, from, to);
    }

    /** Blames [from, to] of a wait on {@code parts}, each its share; the parts add up to the span exactly. */
    private void blame(List<MonitorOwnerChains.Weighted> parts, LockId lock, ThreadRef waiter, List<String> frames,
                       boolean afterWait, long from, long to) {
        double total = 0;
        for (MonitorOwnerChains.Weighted p : parts) {
            total += p.nanos();
        }
        long length = to - from;
        long given = 0;
        double sum = 0;
        for (MonitorOwnerChains.Weighted p : parts) {
            sum += p.nanos();
            long upTo = Math.round(length * (sum / total)); // cumulative rounding: no nanosecond lost or doubled
            out.contention(lock, waiter, frames, from + given, upTo - given, p.cause(), afterWait);
            given = upTo;
        }
    }

    /** Object.wait on the stack, or the same thread's wait on this monitor ended just before. */
    private boolean reacquiresAfterWait(MonitorEnter e, LockId lock) {
        if (Frame.anyFunctionStartsWith(e.frames(), "java.lang.Object.wait")) {
            return true;
        }
        for (MonitorWait w : recentWaitsByThread.getOrDefault(e.thread().javaTid(), new ArrayDeque<>())) {
            if (LockId.monitor(w.monitorClass(), w.address()).equals(lock)
                    && w.endNanos() <= e.beginNanos() + AFTER_WAIT_SLACK_NANOS
                    && w.endNanos() >= e.beginNanos() - AFTER_WAIT_SLACK_NANOS) {
                return true;
            }
        }
        return false;
    }
}
