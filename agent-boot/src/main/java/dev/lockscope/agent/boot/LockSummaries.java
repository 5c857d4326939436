package dev.lockscope.agent.boot;

import dev.lockscope.core.ParkTally;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Snapshots of the live per-blocker tallies, and the {@link LockSummaryEvent}s written from them at
 * every chunk end. The agent's table at exit prints the snapshot the recording's last summaries were
 * written from, so it and {@code lockscope report} agree exactly.
 */
public final class LockSummaries {
    /** One blocker's tally at one moment. */
    public record Entry(BlockerRecord record, ParkTally tally) {
    }

    /**
     * All blockers at one moment ({@code System.nanoTime()}), the final tallies of the collected ones the
     * registry dropped (one per lock site), and the real-time of each lock site their collecting blockers
     * are linked to (the union of its objects' waits, by {@link dev.lockscope.core.LockSites#keyOf}).
     */
    public record Snapshot(long takenAtNanos, List<Entry> entries, List<CollectedTally> collected,
                           Map<String, Long> siteRealTimes) {
    }

    private static volatile Snapshot lastWritten;
    /** Writes of summaries so far: each one's events carry its number. */
    private static final AtomicLong BATCHES = new AtomicLong();
    /** Continuous mode: drop the records of collected blockers once their last summary is written. */
    private static volatile boolean freeCollected;
    private static boolean registered;

    private LockSummaries() {
    }

    /** Registers the summary event with JFR, once per JVM; its hook runs in JFR's periodic thread. */
    static synchronized void register() {
        if (registered) {
            return;
        }
        jdk.jfr.FlightRecorder.register(LockSummaryEvent.class);
        jdk.jfr.FlightRecorder.register(StackBudgetEvent.class);
        jdk.jfr.FlightRecorder.addPeriodicEvent(LockSummaryEvent.class, LockSummaries::write);
        registered = true;
    }

    /**
     * Every blocker's tally now. Parks still open count up to their blocker's last event. No record moves into
     * its site's collected sum meanwhile ({@link BlockerRegistry#DROPS}), so each blocker counts once.
     */
    public static Snapshot snapshot() {
        synchronized (BlockerRegistry.DROPS) {
            return snapshotHoldingDrops();
        }
    }

    private static Snapshot snapshotHoldingDrops() {
        long takenAt = System.nanoTime();
        PerThread.sweepDeadThreads();
        List<BlockerRecord> records = BlockerRegistry.records();
        // Begin times of the parks open now, per record: from the parked threads' own state.
        Map<BlockerRecord, List<Long>> open = new IdentityHashMap<>();
        for (PerThread pt : PerThread.THREADS.values()) {
            BlockerRecord on = pt.parkedOn;
            if (on != null) {
                long since = pt.parkedSince; // read after parkedOn, which published it
                open.computeIfAbsent(on, k -> new ArrayList<>()).add(since);
            }
        }
        List<Entry> entries = new ArrayList<>(records.size());
        // each site's open period counts up to the last event of its objects, as each object's does
        Map<SiteUnion, Long> siteLastTimes = new IdentityHashMap<>();
        for (BlockerRecord r : records) {
            List<Long> begins = open.getOrDefault(r, List.of());
            long[] array = new long[begins.size()];
            for (int i = 0; i < array.length; i++) {
                array[i] = begins.get(i);
            }
            ParkTally tally = r.snapshot(array);
            entries.add(new Entry(r, tally));
            SiteUnion site = r.site();
            if (site != null) {
                siteLastTimes.merge(site, tally.lastTime, Math::max);
            }
        }
        List<CollectedTally> collected = new ArrayList<>();
        for (SiteUnion site : SiteUnion.all()) {
            CollectedTally c = site.collected();
            if (c != null) {
                collected.add(c);
                siteLastTimes.putIfAbsent(site, 0L); // no live object parked on: no open period
            }
        }
        Map<String, Long> siteRealTimes = new HashMap<>();
        siteLastTimes.forEach((site, last) -> siteRealTimes.put(site.key, site.realTimeNanos(last)));
        return new Snapshot(takenAt, entries, collected, siteRealTimes);
    }

    /**
     * The J9 park-contention report's free-on-print (§3.3.3) at every chunk end instead of at every printed table: a
     * collected blocker's record goes once the summary with its final numbers is in the recording,
     * so a JVM that makes blockers for days keeps only the live ones.
     */
    public static void setFreeCollected(boolean on) {
        freeCollected = on;
    }

    private static void commit(String className, int identityHash, ParkTally t, String firstThread, String[] firstFrames,
                               int collectedObjects, long siteRealTimeNanos, long batch) {
        LockSummaryEvent ev = new LockSummaryEvent();
        ev.blockerClass = className;
        ev.blockerHash = identityHash;
        ev.collectionThreshold = t.collectionThreshold;
        ev.collecting = t.collecting;
        ev.timesParked = t.timesParked;
        ev.parkedNow = t.parkedNow;
        ev.peakParked = t.peakParked;
        ev.threadTimeNanos = t.threadTimeNanos;
        ev.realTimeNanos = t.realTimeNanos;
        ev.lifeTimeNanos = t.lifeTimeNanos();
        ev.firstThread = firstThread;
        ev.firstFrames = String.join("\n", firstFrames);
        ev.collectedObjects = collectedObjects;
        ev.siteRealTimeNanos = siteRealTimeNanos;
        ev.batch = batch;
        ev.commit();
    }

    /** The snapshot the latest summary events were written from, or null. */
    public static Snapshot lastWritten() {
        return lastWritten;
    }

    private static void write() {
        try {
            LockSummaryEvent probe = new LockSummaryEvent();
            if (!probe.isEnabled()) {
                return;
            }
            Snapshot s = snapshot();
            long batch = BATCHES.incrementAndGet();
            for (Entry e : s.entries()) {
                ParkTally t = e.tally();
                if (t.timesParked == 0) {
                    continue;
                }
                SiteUnion site = e.record().site();
                commit(e.record().className, e.record().identityHash, t, e.record().firstThread(),
                        e.record().firstFrames(), 0, site == null ? 0 : s.siteRealTimes().getOrDefault(site.key, 0L), batch);
            }
            for (CollectedTally c : s.collected()) {
                commit(c.className(), 0, c.tally(), c.firstThread(), c.firstFrames(), c.objects(),
                        s.siteRealTimes().getOrDefault(c.siteKey(), 0L), batch);
            }
            StackBudgetEvent budget = new StackBudgetEvent();
            if (budget.isEnabled()) {
                long[] dropped = PerThread.droppedByBudget(); // after the snapshot's sweep of ended threads
                budget.perSecond = StackBudget.perSecond();
                budget.parksDropped = dropped[0];
                budget.parkNanosDropped = dropped[1];
                budget.unparksDropped = dropped[2];
                budget.batch = batch;
                budget.commit();
            }
            lastWritten = s;
            if (freeCollected) {
                BlockerRegistry.removeDead();
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }
}
