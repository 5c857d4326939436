package dev.lockscope.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The begins and ends that many {@link LockWaits} hold back until they can be replayed in time order, bounded in
 * memory: the one reorder policy of {@code lockscope report} and of the agent's monitor table.
 *
 * <p>Why points arrive out of order: JFR writes a thread's events when its buffer is flushed (about once a second)
 * and a monitor wait at its end, so a wait's begin arrives up to its length plus that flush interval after its
 * time (about 1 s on a 120-s Derby recording). A lock therefore keeps its points until the latest time seen is
 * {@link #REORDER_NANOS} past them. Where the window holds more than {@link #MAX_POINTS} (Derby's 25,000 row-lock
 * waits a second, four points each, fill 10 s four times over: its window is about 1.3 s; the bound is what a
 * 64-MB heap affords beside the other analyses, {@code BoundedHeapIT}), it is halved until half of that remains, and widened again as the
 * stream thins; a point older than what was replayed then counts as of its lock's tally's last time
 * ({@link ParkTally.Running}: its thread-time stays exact, its real-time and peak may not).
 *
 * <p>Not thread-safe: one reader.
 */
public final class ReplayWindow {
    /** How far behind the latest time seen a point may arrive and still be replayed in order. */
    public static final long REORDER_NANOS = 10_000_000_000L;
    /** Points all locks together hold at most (16 bytes each, up to twice that in their queues' arrays). */
    public static final int MAX_POINTS = 1 << 18;

    private final long reorderNanos;
    private final long maxPoints;
    /**
     * The locks that hold points, each once among those {@link LockWaits#windowed} (a list, not a set: a lookup per
     * point and a hash table's whole capacity per pass showed in profiles of a Derby recording; a lock removed and
     * added again may stand twice, which a pass sees by {@link LockWaits#windowPass}).
     */
    private final List<LockWaits> holding = new ArrayList<>();
    private long points;
    private long latest = Long.MIN_VALUE;
    /** The window now: {@link #reorderNanos}, or less while the stream is denser than {@link #maxPoints} hold. */
    private long window;
    private long passes;

    public ReplayWindow() {
        this(REORDER_NANOS, MAX_POINTS);
    }

    /** With another window and bound: for tests. */
    public ReplayWindow(long reorderNanos, long maxPoints) {
        this.reorderNanos = reorderNanos;
        this.maxPoints = maxPoints;
        this.window = reorderNanos;
    }

    /** {@code lock} holds {@code added} more points, none later than {@code time}. */
    public void added(LockWaits lock, int added, long time) {
        if (!lock.windowed) {
            lock.windowed = true;
            holding.add(lock);
        }
        points += added;
        latest = Math.max(latest, time);
        if (points > maxPoints) {
            release();
        }
    }

    /** {@code lock}'s points leave the window (its caller replays them all, or drops the lock). */
    public void remove(LockWaits lock) {
        if (lock.windowed) {
            lock.windowed = false;
            points -= lock.heldPoints();
        }
    }

    /** Forgets every lock (their points stay theirs). */
    public void clear() {
        holding.forEach(l -> l.windowed = false);
        holding.clear();
        points = 0;
    }

    /** Points held now, all locks together. */
    public long points() {
        return points;
    }

    private void release() {
        replayBefore(latest - window);
        // denser than the window holds: a shorter one, down to none (every point replayed but the latest)
        while (points > maxPoints / 2 && window > 0) {
            window = window > 1_000_000 ? window / 2 : 0;
            replayBefore(latest - window);
        }
        if (points < maxPoints / 4) {
            window = Math.min(reorderNanos, Math.max(1_000_000, window * 2));
        }
    }

    private void replayBefore(long time) {
        long pass = ++passes;
        long held = 0;
        int kept = 0;
        for (int i = 0; i < holding.size(); i++) {
            LockWaits lock = holding.get(i);
            if (!lock.windowed || lock.windowPass == pass) {
                continue; // removed, or its second entry
            }
            lock.windowPass = pass;
            lock.replayBefore(time);
            if (lock.heldPoints() == 0) {
                lock.windowed = false;
            } else {
                held += lock.heldPoints();
                holding.set(kept++, lock);
            }
        }
        holding.subList(kept, holding.size()).clear();
        points = held;
    }
}
