package dev.lockscope.analysis;

import dev.lockscope.agent.boot.BlockerRegistry;
import dev.lockscope.agent.boot.CollectedTally;
import dev.lockscope.agent.boot.LockSummaries;
import dev.lockscope.agent.boot.HookActivation;
import dev.lockscope.agent.boot.ParkHooks;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.ParkTally;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's live tallies (the hooks called directly, no instrumentation) written as
 * {@code lockscope.LockSummary} events when a recording stops, read back by the report's analysis:
 * times parked, parked now, peak, thread-time and real-time agree to the nanosecond, although the
 * recording's threshold left every short park out of the {@code lockscope.Park} events.
 */
class LiveSummaryAgreementIT {
    @TempDir
    Path dir;

    /** Its own class, so its record is easy to find. */
    static final class Blocker {
    }

    @Test
    void reportOfTheSummariesEqualsTheLiveSnapshotTheyWereWrittenFrom() throws Exception {
        BlockerRegistry.configure(0, 1_000);
        HookActivation.activate();
        Blocker blocker = new Blocker();
        Path file = dir.resolve("live.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("lockscope.Park").withThreshold(Duration.ofMillis(50)).withStackTrace();
            recording.enable("lockscope.LockSummary").with("period", "endChunk");
            recording.start();
            int threads = 3;
            CountDownLatch allParkedOnce = new CountDownLatch(threads);
            Thread[] workers = new Thread[threads];
            for (int i = 0; i < threads; i++) {
                workers[i] = new Thread(() -> {
                    for (int n = 0; n < 200; n++) {
                        Object token = ParkHooks.parkBegin(blocker, 100_000, 0);
                        LockSupport.parkNanos(100_000);
                        ParkHooks.parkEnd(token);
                        if (n == 0) {
                            allParkedOnce.countDown();
                        }
                    }
                }, "parker-" + i);
                workers[i].start();
            }
            allParkedOnce.await();
            // one park still open when the recording stops: "parked now"
            Object open = ParkHooks.parkBegin(blocker, 0, 0);
            for (Thread t : workers) {
                t.join();
            }
            recording.stop();
            recording.dump(file);
            ParkHooks.parkEnd(open);
        }
        LockSummaries.Entry live = LockSummaries.lastWritten().entries().stream()
                .filter(e -> e.record().className.equals(Blocker.class.getName())).findFirst().orElseThrow();
        ParkTally t = live.tally();
        assertThat(t.timesParked).isEqualTo(601);
        assertThat(t.parkedNow).isEqualTo(1);
        assertThat(t.threadTimeNanos).isGreaterThanOrEqualTo(600 * 100_000L);

        LockContentionAnalysis analysis = new LockContentionAnalysis(new ContentionOptions(0, 0));
        RecordingReader.read(file, analysis);
        LockMetrics reported = analysis.result().locks().stream()
                .filter(m -> m.className().equals(Blocker.class.getName())).findFirst().orElseThrow();
        assertThat(reported.identityHash()).isEqualTo(Integer.toHexString(live.record().identityHash));
        assertThat(reported.timesParked()).isEqualTo(t.timesParked);
        assertThat(reported.parkedNow()).isEqualTo(t.parkedNow);
        assertThat(reported.peakParked()).isEqualTo(t.peakParked);
        assertThat(reported.threadTimeNanos()).isEqualTo(t.threadTimeNanos);
        assertThat(reported.realTimeNanos()).isEqualTo(t.realTimeNanos);
        assertThat(reported.tally().lifeTimeNanos()).isEqualTo(t.lifeTimeNanos());
        assertThat(reported.firstThread()).isEqualTo(live.record().firstThread());
    }

    /** Its own class: the blockers of one site, one per "request", that the GC collects. */
    static final class RequestMutex {
    }

    /**
     * A site of fresh blockers, each parked on once (shorter than the threshold: no events), summarized live
     * at one chunk end and collected before the next: the recording's last batch has them only in the site's
     * collected sum, beside the site's live ones, and the report's site row is that batch's, not the earlier
     * summaries of the same blockers counted again.
     */
    @Test
    void aSiteWhoseBlockersWereCollectedBetweenTwoBatchesIsReportedFromTheLastOne() throws Exception {
        BlockerRegistry.configure(0, 1_000);
        HookActivation.activate();
        Path file = dir.resolve("collected.jfr");
        List<Object> kept = new ArrayList<>();
        List<Integer> firstHashes;
        try (Recording recording = new Recording()) {
            recording.enable("lockscope.Park").withThreshold(Duration.ofMillis(50)).withStackTrace();
            recording.enable("lockscope.LockSummary").with("period", "endChunk");
            recording.start();
            List<WeakReference<Object>> first = parkOnFresh(10, kept, RequestMutex::new);
            firstHashes = hashes(first);
            try (Recording rotation = new Recording()) {
                rotation.start(); // a chunk end: the first batch has the ten, live
            }
            kept.clear();
            collect(first, RequestMutex.class);
            parkOnFresh(5, kept, RequestMutex::new);
            recording.stop();
            recording.dump(file);
        }
        LockSummaries.Snapshot last = LockSummaries.lastWritten();
        long parks = 0;
        long threadTime = 0;
        int objects = 0;
        for (LockSummaries.Entry e : last.entries()) {
            if (e.record().className.equals(RequestMutex.class.getName())) {
                parks += e.tally().timesParked;
                threadTime += e.tally().threadTimeNanos;
                objects++;
            }
        }
        for (CollectedTally c : last.collected()) {
            if (c.className().equals(RequestMutex.class.getName())) {
                parks += c.tally().timesParked;
                threadTime += c.tally().threadTimeNanos;
                objects += c.objects();
            }
        }
        assertThat(objects).isEqualTo(15);
        assertThat(parks).isEqualTo(15);

        LockContentionAnalysis analysis = new LockContentionAnalysis(new ContentionOptions(0, 0));
        RecordingReader.read(file, analysis);
        LockMetrics site = analysis.result().sites().stream()
                .filter(m -> m.className().equals(RequestMutex.class.getName())).findFirst().orElseThrow();
        assertThat(site.instances()).isEqualTo(15);
        assertThat(site.timesParked()).isEqualTo(parks);
        assertThat(site.threadTimeNanos()).isEqualTo(threadTime);
        assertThat(kept).hasSize(5);
        // owner blame's row of each collected blocker is the site's, as the table's is (their earlier summaries)
        assertThat(firstHashes).hasSize(10);
        for (int hash : firstHashes) {
            assertThat(analysis.result().rowOf(LockId.blocker(RequestMutex.class.getName(), hash)).id())
                    .as("row of collected blocker %x", hash).isEqualTo(site.identityHash());
        }
    }

    /** Its own class: a site of its own, apart from the other test's collected sum. */
    static final class EventedMutex {
    }

    /**
     * Blockers collected before any batch summarized them, their parks recorded as events (threshold 0): the
     * report counts them in their site's collected sum, and owner blame, which sees them in the events, groups
     * them in the same site row (without it each was a blame node of its own: a site of thousands of
     * short-lived locks fell behind one long-lived lock in the blame tree while it led the table).
     */
    @Test
    void blockersCollectedBeforeAnySummaryAreInTheirSiteRowForOwnerBlame() throws Exception {
        BlockerRegistry.configure(0, 1_000);
        HookActivation.activate();
        Path file = dir.resolve("collected-events.jfr");
        List<Object> kept = new ArrayList<>();
        List<Integer> collectedHashes;
        try (Recording recording = new Recording()) {
            recording.enable("lockscope.Park").withThreshold(Duration.ZERO).withStackTrace();
            recording.enable("lockscope.LockSummary").with("period", "endChunk");
            recording.start();
            List<WeakReference<Object>> first = parkOnFresh(10, kept, EventedMutex::new);
            collectedHashes = hashes(first);
            kept.clear();
            collect(first, EventedMutex.class);
            parkOnFresh(5, kept, EventedMutex::new);
            recording.stop();
            recording.dump(file);
        }
        LockContentionAnalysis analysis = new LockContentionAnalysis(new ContentionOptions(0, 0));
        RecordingReader.read(file, analysis);
        LockMetrics site = analysis.result().sites().stream()
                .filter(m -> m.className().equals(EventedMutex.class.getName())).findFirst().orElseThrow();
        assertThat(site.instances()).isEqualTo(15);
        assertThat(collectedHashes).hasSize(10);
        for (int hash : collectedHashes) {
            assertThat(analysis.result().rowOf(LockId.blocker(EventedMutex.class.getName(), hash)).id())
                    .as("row of collected blocker %x", hash).isEqualTo(site.identityHash());
        }
        for (Object live : kept) {
            assertThat(analysis.result().rowOf(LockId.blocker(EventedMutex.class.getName(), System.identityHashCode(live))).id())
                    .isEqualTo(site.identityHash());
        }
    }

    /** Lets the GC collect {@code refs}' blockers (no longer held) and drops their records into their site's sum. */
    private static void collect(List<WeakReference<Object>> refs, Class<?> site) throws InterruptedException {
        for (int i = 0; i < 200 && collectedParks(site) < refs.size(); i++) {
            System.gc();
            Thread.sleep(10);
            BlockerRegistry.dropCollected();
        }
        assertThat(refs).allMatch(r -> r.get() == null);
    }

    /** The identity hashes of blockers still reachable (taken before they are let go). */
    private static List<Integer> hashes(List<WeakReference<Object>> refs) {
        List<Integer> out = new ArrayList<>();
        for (WeakReference<Object> r : refs) {
            Object o = r.get();
            if (o != null) {
                out.add(System.identityHashCode(o));
            }
        }
        return out;
    }

    /** The parks of the site's collected blockers the registry has dropped so far. */
    private static long collectedParks(Class<?> site) {
        return LockSummaries.snapshot().collected().stream().filter(c -> c.className().equals(site.getName()))
                .mapToLong(c -> c.tally().timesParked).sum();
    }

    /** Parks once, 100 µs, on each of {@code n} new blockers from one place; {@code kept} holds them. */
    private static List<WeakReference<Object>> parkOnFresh(int n, List<Object> kept, java.util.function.Supplier<Object> fresh) {
        List<WeakReference<Object>> refs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object blocker = fresh.get();
            // on one line, as the agent's hooks sit in one frame of LockSupport.park: the agent's first stack
            // (taken at the begin) and the event's (at the end) name the same site
            Object token = ParkHooks.parkBegin(blocker, 100_000, 0); LockSupport.parkNanos(100_000); ParkHooks.parkEnd(token);
            kept.add(blocker);
            refs.add(new WeakReference<>(blocker));
        }
        return refs;
    }
}
