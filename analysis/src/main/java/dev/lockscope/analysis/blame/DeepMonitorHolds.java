package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.DeepRelease;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deep mode's exact monitor holds ({@code lockscope.DeepRelease}): while a thread waits to enter a monitor
 * of the selected code, the agent records every release of it, with the holder's stack and, when a
 * thread was already waiting at the acquisition, the hold's length. So every moment of a recorded wait is
 * known exactly: until a release, the monitor was held by the releasing thread in the code of its stack;
 * between a release and the next hold's start (or the waiter's acquisition) it was free, handed off.
 *
 * <p>A {@code jdk.JavaMonitorEnter} names the monitor by its JVM address, a release by class and identity
 * hash: the two are joined by the hand-off, the waiter's previous owner's release of a monitor of the same
 * class that was the monitor's latest release before the waiter got it. A wait is covered (its pieces are
 * returned) only when that release is found, within the wait or just before it (the release is timed
 * before the holder's stack walk, which the waiter may outlast); otherwise the agent did not register the
 * waiter, or its history was dropped, and the wait is left to the estimates without deep mode.
 *
 * <p>Bounded: per monitor its {@link #RELEASES_KEPT} latest releases, at most {@link #RELEASES_TOTAL}
 * over all monitors (the least recently released monitor is forgotten first), per thread its
 * {@link #RECENT_PER_THREAD} latest releases.
 */
final class DeepMonitorHolds {
    static final int RELEASES_KEPT = 1 << 14;
    static final int RELEASES_TOTAL = 1 << 20;
    static final int RECENT_PER_THREAD = 64;
    /** How long before a wait's begin the hand-off release may be timed (the holder's stack walk in between). */
    static final long HANDOFF_SLACK_NANOS = 1_000_000;

    /** A part of a wait: [from, to] blamed on {@code cause}. */
    record Piece(long from, long to, Cause cause) {
    }

    private record DeepLockKey(String lockClass, int hash) {
    }

    private static final class Releases {
        final ArrayDeque<DeepRelease> kept = new ArrayDeque<>();
        /** The latest release dropped from {@link #kept}; waits beginning before it are not covered. */
        long droppedUpTo = Long.MIN_VALUE;
    }

    private final LinkedHashMap<DeepLockKey, Releases> byLock = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<Long, ArrayDeque<DeepRelease>> recentByThread = new HashMap<>();
    /** The deep lock of each monitor address, once joined. */
    private final Map<LockId, DeepLockKey> byAddress = new HashMap<>();
    private long total;

    void release(DeepRelease r) {
        DeepLockKey key = new DeepLockKey(r.lockClass(), r.lockHash());
        Releases releases = byLock.computeIfAbsent(key, k -> new Releases());
        releases.kept.addLast(r);
        total++;
        if (releases.kept.size() > RELEASES_KEPT) {
            releases.droppedUpTo = releases.kept.removeFirst().timeNanos();
            total--;
        }
        while (total > RELEASES_TOTAL) {
            Iterator<Releases> eldest = byLock.values().iterator();
            total -= eldest.next().kept.size();
            eldest.remove();
        }
        ArrayDeque<DeepRelease> recent = recentByThread.computeIfAbsent(r.thread().javaTid(), k -> new ArrayDeque<>());
        recent.addLast(r);
        if (recent.size() > RECENT_PER_THREAD) {
            recent.removeFirst();
        }
    }

    /**
     * The wait split exactly at the monitor's releases: each part held is blamed on the releasing thread in
     * the chain of its release ({@link OwnerChain#DEEP_EXACT}), each part free on a hand-off gap; null when
     * deep mode did not record this wait's holds.
     */
    List<Piece> pieces(MonitorEnter w, LockId lock) {
        ThreadRef previous = w.previousOwner();
        if (byLock.isEmpty() || previous == null || previous.equals(w.thread())) {
            return null;
        }
        DeepLockKey key = join(w, lock, previous);
        if (key == null) {
            return null;
        }
        Releases releases = byLock.get(key);
        if (releases.droppedUpTo >= w.beginNanos() - HANDOFF_SLACK_NANOS) {
            return null;
        }
        ArrayDeque<DeepRelease> inside = new ArrayDeque<>(); // the releases within the wait, oldest first
        for (Iterator<DeepRelease> it = releases.kept.descendingIterator(); it.hasNext(); ) {
            DeepRelease r = it.next();
            if (r.timeNanos() <= w.beginNanos()) {
                break;
            }
            if (r.timeNanos() <= w.endNanos() && !r.thread().equals(w.thread())) {
                inside.addFirst(r);
            }
        }
        List<Piece> out = new ArrayList<>(2 * inside.size() + 1);
        long cursor = w.beginNanos();
        for (DeepRelease r : inside) {
            long since = r.heldSinceNanos();
            if (since > cursor) {
                out.add(new Piece(cursor, since, Cause.HANDOFF_GAP));
                cursor = since;
            }
            out.add(new Piece(cursor, r.timeNanos(), new Cause(r.thread(), r.frames(), OwnerChain.DEEP_EXACT)));
            cursor = r.timeNanos();
        }
        if (w.endNanos() > cursor) {
            out.add(new Piece(cursor, w.endNanos(), Cause.HANDOFF_GAP));
        }
        return out;
    }

    /**
     * The deep lock the waiter got from {@code previous}: a monitor of its class whose latest release before
     * the acquisition is {@code previous}'s, timed within the wait; the one joined before for this address
     * when several fit. Null when none does.
     */
    private DeepLockKey join(MonitorEnter w, LockId lock, ThreadRef previous) {
        ArrayDeque<DeepRelease> recent = recentByThread.get(previous.javaTid());
        if (recent == null) {
            return null;
        }
        DeepLockKey found = null;
        int candidates = 0;
        for (Iterator<DeepRelease> it = recent.descendingIterator(); it.hasNext(); ) {
            DeepRelease r = it.next();
            if (r.timeNanos() > w.endNanos()) {
                continue;
            }
            if (r.timeNanos() < w.beginNanos() - HANDOFF_SLACK_NANOS) {
                break;
            }
            DeepLockKey key = new DeepLockKey(r.lockClass(), r.lockHash());
            if (!r.lockClass().equals(w.monitorClass()) || key.equals(found) || !isLatestRelease(key, r, w.endNanos())) {
                continue;
            }
            if (found == null) {
                found = key;
            }
            candidates++;
        }
        DeepLockKey known = byAddress.get(lock);
        if (candidates == 1) {
            byAddress.put(lock, found);
            return found;
        }
        return candidates > 1 && known != null && isHandoff(known, previous, w) ? known : null;
    }

    private boolean isHandoff(DeepLockKey key, ThreadRef previous, MonitorEnter w) {
        DeepRelease last = latestBefore(key, w.endNanos());
        return last != null && last.thread().equals(previous) && last.timeNanos() >= w.beginNanos() - HANDOFF_SLACK_NANOS;
    }

    /** Whether {@code r} is its monitor's latest release at or before {@code notAfter}. */
    private boolean isLatestRelease(DeepLockKey key, DeepRelease r, long notAfter) {
        return latestBefore(key, notAfter) == r;
    }

    private DeepRelease latestBefore(DeepLockKey key, long notAfter) {
        Releases releases = byLock.get(key);
        if (releases == null) {
            return null;
        }
        for (Iterator<DeepRelease> it = releases.kept.descendingIterator(); it.hasNext(); ) {
            DeepRelease r = it.next();
            if (r.timeNanos() <= notAfter) {
                return r;
            }
        }
        return null;
    }
}
