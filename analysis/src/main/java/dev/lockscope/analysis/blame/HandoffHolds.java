package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Average hold time from a lock's hand-offs, beside the J9 park-contention report's estimate (parking real-time / parks),
 * which reads low when waiters park again after a wake-up (barging, virtual threads) and on a lightly
 * contended lock (the part of a hold before its first waiter parked is not seen).
 *
 * <p>A hand-off is the lock passing from one owner to a waiter: for a {@code ReentrantLock}, the owner's
 * releasing unpark and the woken waiter's return from park; for a monitor, a contended enter naming
 * its previous owner. A hold is measured from the moment a thread got the lock by a hand-off to the
 * moment it handed the lock on; and, when the thread it woke lost the lock again (it parks again:
 * the releasing thread barged back in), from one release to the releasing thread's next. It is
 * dropped when the lock is seen changing hands otherwise in between (the thread released it with
 * nobody waiting, another thread took it). A monitor owner that takes the monitor back without
 * contention is not seen (no JFR event), so for a monitor such a hold runs from one hand-off to the
 * next: an upper bound when owners re-enter. With short parks sampled, a releasing thread's unpark of a
 * waiter whose park was not recorded is not recorded either: a hold is counted only when the thread's
 * count of such unrecorded unparks did not change between its two hand-offs (else it would span several
 * holds and the hand-offs between them).
 */
final class HandoffHolds {
    /** One lock's owner since its latest hand-off, and the holds measured so far. */
    private static final class OnLock {
        /** The thread that got the lock by the latest hand-off, 0 when none or when it lost the lock again. */
        long ownerTid;
        long since;
        /** Whether a thread took the lock by hand-off since the latest release. */
        boolean takenSinceRelease;
        /** The owner's count of unrecorded unparks when it got the lock ({@code ParkWait.unrecordedUnparks}). */
        long ownerUnrecorded;
        long lastReleaserTid;
        long lastReleaseAt;
        /** The last releaser's count of unrecorded unparks before that release ({@code Unpark.unrecordedBefore}). */
        long lastReleaseUnrecorded;
        long holds;
        long nanos;
    }

    private final Map<LockId, OnLock> locks = new HashMap<>();

    /** {@code thread} got {@code lock} from another thread at {@code at} (a monitor: nothing goes unrecorded). */
    void handedTo(LockId lock, ThreadRef thread, long at) {
        handedTo(lock, thread, at, 0);
    }

    /** The same, {@code unrecorded} being the thread's count of unrecorded unparks then. */
    void handedTo(LockId lock, ThreadRef thread, long at, long unrecorded) {
        OnLock l = locks.computeIfAbsent(lock, k -> new OnLock());
        l.ownerTid = thread.javaTid();
        l.since = at;
        l.ownerUnrecorded = unrecorded;
        l.takenSinceRelease = true;
    }

    /** {@code thread} handed {@code lock} on at {@code at}: a hold when it got the lock by the latest hand-off. */
    void handedOn(LockId lock, ThreadRef thread, long at) {
        handedOn(lock, thread, at, 0);
    }

    /** The same, {@code unrecordedBefore} being the thread's count of unrecorded unparks before this one. */
    void handedOn(LockId lock, ThreadRef thread, long at, long unrecordedBefore) {
        OnLock l = locks.get(lock);
        if (l == null) {
            return;
        }
        long tid = thread.javaTid();
        if (l.ownerTid == tid && at >= l.since) {
            if (l.ownerUnrecorded == unrecordedBefore) {
                add(l, at - l.since);
            }
        } else if (!l.takenSinceRelease && l.lastReleaserTid == tid && at >= l.lastReleaseAt
                && l.lastReleaseUnrecorded == unrecordedBefore) {
            add(l, at - l.lastReleaseAt); // the woken thread lost the lock to this thread, which barged back in
        }
        l.ownerTid = 0;
        l.takenSinceRelease = false;
        l.lastReleaserTid = tid;
        l.lastReleaseAt = at;
        l.lastReleaseUnrecorded = unrecordedBefore;
    }

    private static void add(OnLock l, long nanos) {
        l.holds++;
        l.nanos += nanos;
    }

    /** {@code thread} waits for {@code lock} again: it does not hold it (woken, it lost the lock to a barging thread). */
    void waitsAgain(LockId lock, ThreadRef thread) {
        OnLock l = locks.get(lock);
        if (l != null && l.ownerTid == thread.javaTid()) {
            l.ownerTid = 0;
            l.takenSinceRelease = false;
        }
    }

    /** The locks with at least one measured hold, in lock order. */
    List<HandoffHold> result() {
        Map<LockId, OnLock> sorted = new TreeMap<>(locks);
        List<HandoffHold> out = new ArrayList<>();
        sorted.forEach((lock, l) -> {
            if (l.holds > 0) {
                out.add(new HandoffHold(lock, l.holds, l.nanos));
            }
        });
        return out;
    }
}
