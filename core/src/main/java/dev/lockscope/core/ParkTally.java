package dev.lockscope.core;

/**
 * The running state of one blocker's park-contention record, exactly as the J9 park-contention report §3.5–3.7 keeps it.
 *
 * <p>The tally is immutable: {@link #park(long)} and {@link #unpark(long)} return the next state. The
 * agent's park path keeps its own allocation-free counters and turns them into a tally with
 * {@link #of} when a table or summary is made; replays of recorded waits (the analysis, the agent's
 * monitor table) advance a {@link Running} copy, whose two methods hold the formulas, so the exit table
 * and {@code lockscope report} share one set of them.
 *
 * <p>"Unpark" here is the seed's unparking event: the moment a parked thread returns from park
 * (§3.6.3), not the call of {@code LockSupport.unpark} by another thread. For monitors the same
 * tally is fed with "blocked on entry" and "entered".
 *
 * <p>Timestamps are nanoseconds on any monotonic clock; only differences matter.
 */
public final class ParkTally {
    /** Parks on this blocker before collection starts (§3.3.1); 0 collects from the first park. */
    public final long collectionThreshold;
    /** Times parked (§3.7.5): every park, collected or not. */
    public final long timesParked;
    /** Parked now (§3.7.6). */
    public final int parkedNow;
    /** Peak parked (§3.7.7): max of ParkedNow over all collected events. */
    public final int peakParked;
    /** Parking thread-time (§3.7.8): Σ ParkedNow(i−1) × (Time(i) − Time(i−1)). */
    public final long threadTimeNanos;
    /** Parking real-time (§3.7.9): Σ min(ParkedNow(i−1), 1) × (Time(i) − Time(i−1)). */
    public final long realTimeNanos;
    /** Time(1): timestamp of the first collected event; meaningful once {@link #collecting}. */
    public final long firstTime;
    /** Time(n): timestamp of the last collected event. */
    public final long lastTime;
    /** Whether the collection threshold has been reached. */
    public final boolean collecting;

    private ParkTally(long collectionThreshold, long timesParked, int parkedNow, int peakParked,
                      long threadTimeNanos, long realTimeNanos, long firstTime, long lastTime,
                      boolean collecting) {
        this.collectionThreshold = collectionThreshold;
        this.timesParked = timesParked;
        this.parkedNow = parkedNow;
        this.peakParked = peakParked;
        this.threadTimeNanos = threadTimeNanos;
        this.realTimeNanos = realTimeNanos;
        this.firstTime = firstTime;
        this.lastTime = lastTime;
        this.collecting = collecting;
    }

    /** An empty tally that starts collecting after {@code collectionThreshold} parks. */
    public static ParkTally empty(long collectionThreshold) {
        if (collectionThreshold < 0) {
            throw new IllegalArgumentException("collection threshold must be >= 0: " + collectionThreshold);
        }
        return new ParkTally(collectionThreshold, 0, 0, 0, 0, 0, 0, 0, false);
    }

    /**
     * A tally with the given values, for state summed elsewhere: the agent's allocation-free live
     * counters (snapshot at print time) and the {@code lockscope.LockSummary} events they write.
     */
    public static ParkTally of(long collectionThreshold, long timesParked, int parkedNow, int peakParked,
                               long threadTimeNanos, long realTimeNanos, long firstTime, long lastTime,
                               boolean collecting) {
        return new ParkTally(collectionThreshold, timesParked, parkedNow, peakParked, threadTimeNanos, realTimeNanos,
                firstTime, lastTime, collecting);
    }

    /** A thread parks on the blocker at {@code now} (§3.6.2). */
    public ParkTally park(long now) {
        Running r = running();
        r.park(now);
        return r.tally();
    }

    /** A parked thread returns from park at {@code now} (§3.6.3). */
    public ParkTally unpark(long now) {
        Running r = running();
        r.unpark(now);
        return r.tally();
    }

    /** A running copy of this tally, to advance without a new tally per event. */
    public Running running() {
        return new Running(this);
    }

    /**
     * The same state advanced in place, where one owner replays millions of events (the analysis's
     * {@link LockWaits}): a tally per park and per return was a fifth of everything the replay allocated.
     * The formulas live here only; {@link #park} and {@link #unpark} use them too.
     */
    public static final class Running {
        private final long collectionThreshold;
        private long timesParked;
        private int parkedNow;
        private int peakParked;
        private long threadTimeNanos;
        private long realTimeNanos;
        private long firstTime;
        private long lastTime;
        private boolean collecting;

        private Running(ParkTally t) {
            collectionThreshold = t.collectionThreshold;
            timesParked = t.timesParked;
            parkedNow = t.parkedNow;
            peakParked = t.peakParked;
            threadTimeNanos = t.threadTimeNanos;
            realTimeNanos = t.realTimeNanos;
            firstTime = t.firstTime;
            lastTime = t.lastTime;
            collecting = t.collecting;
        }

        /** A thread parks on the blocker at {@code now} (§3.6.2). */
        public void park(long now) {
            timesParked++;
            if (collecting) {
                advance(now);
                // a begin replayed after later points (a wait that arrived late): its thread was parked since
                // too, so thread-time stays the sum of the waits; real-time and peak cannot be mended so. Without
                // a threshold collection starts at the first park, which this one may be
                if (collectionThreshold == 0) {
                    firstTime = Math.min(firstTime, now);
                }
                threadTimeNanos += lastTime - Math.max(now, firstTime);
                parkedNow++;
                peakParked = Math.max(peakParked, parkedNow);
            } else if (timesParked > collectionThreshold) {
                // Collection starts with this park: it is event 1 of the sums, so it adds no time yet.
                parkedNow++;
                peakParked = parkedNow;
                startCollecting(now);
            } else {
                parkedNow++;
                notCollecting();
            }
        }

        private void startCollecting(long now) {
            threadTimeNanos = 0;
            realTimeNanos = 0;
            firstTime = now;
            lastTime = now;
            collecting = true;
        }

        /** Before collection starts no time is summed. */
        private void notCollecting() {
            threadTimeNanos = 0;
            realTimeNanos = 0;
            firstTime = 0;
            lastTime = 0;
        }

        /** A parked thread returns from park at {@code now} (§3.6.3). */
        public void unpark(long now) {
            if (collecting) {
                advance(now);
                if (parkedNow > 0) {
                    // an end replayed after later points: its thread was counted parked until then
                    // (not below zero: after a dynamic attach the end may be of a park the tally never saw)
                    threadTimeNanos = Math.max(0, threadTimeNanos - (lastTime - Math.max(now, firstTime)));
                }
            } else {
                notCollecting();
            }
            // An unpark can arrive for a park that began before the tally existed (dynamic attach):
            // the counter never goes below zero.
            parkedNow = Math.max(0, parkedNow - 1);
        }

        /** Adds the time since the last collected event at the number parked before this one. */
        private void advance(long now) {
            long dt = Math.max(0, now - lastTime);
            threadTimeNanos += parkedNow * dt;
            realTimeNanos += Math.min(parkedNow, 1) * dt;
            lastTime = Math.max(lastTime, now);
        }

        public boolean collecting() {
            return collecting;
        }

        /** The state now, as a tally. */
        public ParkTally tally() {
            return new ParkTally(collectionThreshold, timesParked, parkedNow, peakParked, threadTimeNanos, realTimeNanos,
                    firstTime, lastTime, collecting);
        }
    }

    /** Time(n) − Time(1): how long data was collected for this blocker (§3.7.14). */
    public long lifeTimeNanos() {
        return collecting ? lastTime - firstTime : 0;
    }

    /** Value equality, so results built from tallies (e.g. {@link LockMetrics}) compare by content. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ParkTally t && collectionThreshold == t.collectionThreshold
                && timesParked == t.timesParked && parkedNow == t.parkedNow && peakParked == t.peakParked
                && threadTimeNanos == t.threadTimeNanos && realTimeNanos == t.realTimeNanos
                && firstTime == t.firstTime && lastTime == t.lastTime && collecting == t.collecting;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(collectionThreshold, timesParked, parkedNow, peakParked, threadTimeNanos,
                realTimeNanos, firstTime, lastTime, collecting);
    }

    @Override
    public String toString() {
        return "ParkTally{parks=" + timesParked + ", now=" + parkedNow + ", peak=" + peakParked
                + ", thread=" + threadTimeNanos + ", real=" + realTimeNanos
                + ", first=" + firstTime + ", last=" + lastTime + ", collecting=" + collecting + '}';
    }
}
