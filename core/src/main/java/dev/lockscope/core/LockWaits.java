package dev.lockscope.core;

import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The waits on one lock (a park blocker or a monitor) from a recording, replayed through
 * {@link ParkTally} in time order and turned into {@link LockMetrics}: the J9 park-contention report's accounting wherever
 * waits are read back rather than seen live, so {@code lockscope report}, the sweep and the agent's
 * own table of monitors measure waits alike.
 *
 * <p>Waits may be fed in any order. Each begin and end is held as a point until the caller releases
 * the earliest ({@link #replayEarliest}); {@link #metrics} releases the rest. A caller that holds
 * every point replays exactly; one that releases points to bound memory replays exactly unless a
 * point arrives after a later one was released (it then counts as of the tally's last time).
 *
 * <p>At equal times ends come before begins, so two waits that merely touch do not overlap (no
 * spurious peak); the end of a zero-length wait comes after its own begin, since a thread cannot
 * return from a park it has not entered. Points equal in time and kind commute in the tally.
 */
public final class LockWaits {
    /** End time of a wait that had not ended when the recording stopped ("parked now"). */
    public static final long OPEN = Long.MIN_VALUE;

    private static final byte END = 0;
    private static final byte BEGIN = 1;
    private static final byte END_OF_ZERO_LENGTH = 2;

    /** Where a point's kind sits in its tie-breaker, above its arrival number: time, then kind, then arrival. */
    private static final int KIND_SHIFT = 56;

    /** A wait that may be the first monitored one (§3.7.1/§3.7.2); begin order is (begin, tie). */
    private record FirstWait(long begin, long tie, String thread, List<String> frames) {
    }

    private static final Comparator<FirstWait> BEGIN_ORDER = Comparator.comparingLong(FirstWait::begin)
            .thenComparingLong(FirstWait::tie);
    private static final Comparator<FirstWait> LATEST_FIRST = BEGIN_ORDER.reversed();

    private final LockKind kind;
    private final String className;
    private final String identity;
    private final long collectionThreshold;
    /** Points by time, kind and arrival; no payload. */
    private final TimeOrderQueue<Void> held = new TimeOrderQueue<>();
    /**
     * The collectionThreshold + 1 earliest waits, the latest of them on top; null for a threshold of 0, where
     * {@link #first} alone is that wait (one object per lock, and a recording has tens of thousands of locks).
     */
    private final PriorityQueue<FirstWait> earliest;
    /** With a threshold of 0: the earliest wait. */
    private FirstWait first;
    /** The earliest wait recorded with a stack: shown when the first monitored one has none (JFR missed its stack). */
    private FirstWait earliestWithStack;
    private final ParkTally.Running tally;
    private long arrivals;
    /** Whether a point was replayed before the end: the points held are then not all of this lock's waits. */
    private boolean replayedEarly;
    /** Whether a {@link ReplayWindow} holds this lock now; the release pass that last visited it. */
    boolean windowed;
    long windowPass;

    public LockWaits(LockKind kind, String className, String identity, long collectionThreshold) {
        this.kind = kind;
        this.className = className;
        this.identity = identity;
        this.collectionThreshold = collectionThreshold;
        // sized for what it keeps: one queue per lock object, tens of thousands of them in a real recording
        this.earliest = collectionThreshold == 0 ? null
                : new PriorityQueue<>((int) Math.min(collectionThreshold + 2, 11), LATEST_FIRST);
        this.tally = ParkTally.empty(collectionThreshold).running();
    }

    /**
     * A wait began.
     *
     * @param tie orders waits that began at the same time (a sequence number, a thread id)
     */
    public void begin(long time, long tie, String thread, List<String> frames) {
        FirstWait wait = null;
        if (!frames.isEmpty() && (earliestWithStack == null || time < earliestWithStack.begin()
                || time == earliestWithStack.begin() && tie < earliestWithStack.tie())) {
            wait = new FirstWait(time, tie, thread, frames);
            earliestWithStack = wait;
        }
        if (earliest == null) {
            if (first == null || time < first.begin() || time == first.begin() && tie <= first.tie()) {
                first = wait != null ? wait : new FirstWait(time, tie, thread, frames);
            }
        } else {
            FirstWait latestKept = earliest.size() > collectionThreshold ? earliest.peek() : null;
            // a wait that begins strictly after every kept one would be added and polled at once
            if (latestKept == null || time < latestKept.begin() || time == latestKept.begin() && tie <= latestKept.tie()) {
                earliest.add(wait != null ? wait : new FirstWait(time, tie, thread, frames));
                if (earliest.size() > collectionThreshold + 1) {
                    earliest.poll();
                }
            }
        }
        hold(time, BEGIN);
    }

    private void hold(long time, byte kind) {
        held.add(time, (long) kind << KIND_SHIFT | arrivals++, null);
    }

    /** The wait that began at {@code begin} ended at {@code end}. */
    public void end(long begin, long end) {
        hold(end, end == begin ? END_OF_ZERO_LENGTH : END);
    }

    /**
     * A whole wait; {@code end} is {@link #OPEN} for a wait still in progress when the recording
     * stopped. Waits that began at the same time rank in the order they were added.
     */
    public void add(long begin, long end, String thread, List<String> frames) {
        begin(begin, arrivals, thread, frames);
        if (end != OPEN) {
            end(begin, end);
        }
    }

    /** Begins and ends not yet replayed. */
    public int heldPoints() {
        return held.size();
    }

    /** Replays the earliest point held. */
    public void replayEarliest() {
        replayedEarly = true;
        held.poll();
        long time = held.polledTime();
        if (held.polledTie() >>> KIND_SHIFT == BEGIN) {
            tally.park(time);
        } else {
            tally.unpark(time);
        }
    }

    /**
     * Replays the points held that lie before {@code time}, keeping the later ones in order: a live
     * consumer bounds its memory by releasing what is older than the waits still arriving.
     */
    public void replayBefore(long time) {
        while (!held.isEmpty() && held.peekTime() < time) {
            replayEarliest();
        }
    }

    /**
     * The metrics as if every point held were replayed now, without releasing them (a live table or
     * scrape in the middle of a run leaves later arrivals their exact order).
     *
     * @return null when the collection threshold was never reached
     */
    public LockMetrics metricsNow(long totalExecutionNanos) {
        ParkTally.Running t = tally.tally().running();
        replay(held.copy(), t);
        if (!t.collecting()) {
            return null;
        }
        FirstWait first = shown(firstMonitored());
        return new LockMetrics(kind, className, identity, first.thread(), first.frames(), t.tally(), totalExecutionNanos);
    }

    /** Replays every one of {@code points} into {@code t}, emptying them. */
    private static void replay(TimeOrderQueue<Void> points, ParkTally.Running t) {
        while (!points.isEmpty()) {
            points.poll();
            if (points.polledTie() >>> KIND_SHIFT == BEGIN) {
                t.park(points.polledTime());
            } else {
                t.unpark(points.polledTime());
            }
        }
    }

    /** Whether every wait added is still held as points (none replayed yet): {@link #unionRealTimeNanos} can use it. */
    public boolean holdsEveryWait() {
        return !replayedEarly;
    }

    /**
     * The real-time of {@code locks} together, the time at least one of them had a waiter (the union of their waiting
     * intervals), from the points they hold, which stay held; -1 when one of them no longer holds every wait
     * ({@link #holdsEveryWait}).
     */
    public static long unionRealTimeNanos(java.util.Collection<LockWaits> locks) {
        TimeOrderQueue<Void> all = new TimeOrderQueue<>();
        for (LockWaits l : locks) {
            if (!l.holdsEveryWait()) {
                return -1;
            }
            TimeOrderQueue<Void> points = l.held.copy();
            while (!points.isEmpty()) {
                points.poll();
                all.add(points.polledTime(), points.polledTie(), null);
            }
        }
        ParkTally.Running t = ParkTally.empty(0).running();
        replay(all, t);
        return t.tally().realTimeNanos;
    }

    /**
     * Replays every point held, then the metrics.
     *
     * @return null when the collection threshold was never reached
     */
    public LockMetrics metrics(long totalExecutionNanos) {
        while (!held.isEmpty()) {
            replayEarliest();
        }
        if (!tally.collecting()) {
            return null;
        }
        // §3.7.1/§3.7.2: the thread and stack of the first *monitored* wait, the one with which the
        // collection threshold is reached: the latest of the collectionThreshold + 1 earliest.
        FirstWait first = shown(firstMonitored());
        return new LockMetrics(kind, className, identity, first.thread(), first.frames(), tally.tally(), totalExecutionNanos);
    }

    /** The latest of the collectionThreshold + 1 earliest waits: the first one monitored (§3.7.1). */
    private FirstWait firstMonitored() {
        return earliest == null ? first : earliest.peek();
    }

    /**
     * The first monitored wait, or where it has no stack (JFR recorded a monitor event without one), the
     * earliest wait that has one, thread and stack together: a lock's stack and site must not be lost, nor
     * all stackless objects of a class merged into one site "?" (DemoPatternsIT saw both demo monitors so).
     */
    private FirstWait shown(FirstWait first) {
        return first.frames().isEmpty() && earliestWithStack != null ? earliestWithStack : first;
    }
}
