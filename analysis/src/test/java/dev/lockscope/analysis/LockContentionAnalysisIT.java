package dev.lockscope.analysis;

import dev.lockscope.analysis.blame.BlameResult;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockTable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.lockscope.analysis.RecordedScenario.ContendedMonitor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The analysis on one real JFR recording written by {@link RecordedScenario}. */
class LockContentionAnalysisIT {
    private static final double EXACT = 1e-9;

    @TempDir
    static Path dir;
    static LockRecording recording;

    @BeforeAll
    static void record() throws Exception {
        recording = LockRecording.collect(RecordedScenario.record(dir));
    }

    private static LockContention analyze(long collectionThreshold, long printThreshold) {
        return recording.contention(new ContentionOptions(collectionThreshold, printThreshold));
    }

    private static Optional<LockMetrics> lock(LockContention c, String className) {
        return c.locks().stream().filter(m -> m.className().equals(className)).findFirst();
    }

    private static List<ParkWait> parks(String blockerClass) {
        return recording.parks().stream().filter(p -> p.blockerClass().equals(blockerClass)).toList();
    }

    @Test
    void overlappingParksOnOneBlocker() {
        LockMetrics m = lock(analyze(0, 0), RecordedScenario.OVERLAP).orElseThrow();
        List<ParkWait> waits = parks(RecordedScenario.OVERLAP);
        ParkWait a = waits.get(0);
        ParkWait b = waits.get(1);
        assertThat(a.thread().name()).isEqualTo("overlap-A");
        assertThat(b.beginNanos()).isBetween(a.beginNanos(), a.endNanos());
        assertThat(a.endNanos()).isLessThan(b.endNanos());

        assertThat(m.kind()).isEqualTo(LockKind.PARK);
        assertThat(m.identityHash()).isEqualTo("100");
        assertThat(m.timesParked()).isEqualTo(2);
        assertThat(m.parkedNow()).isZero();
        assertThat(m.peakParked()).isEqualTo(2);
        assertThat(m.firstThread()).isEqualTo("overlap-A");
        // innermost frame is the code that committed the park event (the agent's is its hook, left out)
        assertThat(m.firstFrames()).isNotEmpty();
        assertThat(m.firstFrames().get(0)).startsWith(RecordedScenario.Park.class.getName() + ".end:");
        // §3.7.8 thread-time is the sum of both parks, §3.7.9 real-time their union
        long threadTime = (a.endNanos() - a.beginNanos()) + (b.endNanos() - b.beginNanos());
        long realTime = b.endNanos() - a.beginNanos();
        assertThat(m.threadTimeNanos()).isEqualTo(threadTime);
        assertThat(m.realTimeNanos()).isEqualTo(realTime);
        assertThat(m.tally().lifeTimeNanos()).isEqualTo(realTime);
        assertThat(m.realLifeTimeUtilPct()).isCloseTo(100.0, within(EXACT));
        assertThat(m.avgHoldNanos()).isCloseTo(realTime / 2.0, within(EXACT));
        assertThat(m.realTimeUtilPct()).isCloseTo(100.0 * realTime / recording.durationNanos(), within(EXACT));
        // the clock: B slept 30 ms parked, A at least 10 ms
        assertThat(m.threadTimeNanos()).isGreaterThanOrEqualTo(40_000_000L);
    }

    @Test
    void sequentialParksNeverOverlap() {
        LockMetrics m = lock(analyze(0, 0), RecordedScenario.SEQUENTIAL).orElseThrow();
        List<ParkWait> waits = parks(RecordedScenario.SEQUENTIAL);
        long sum = waits.stream().mapToLong(p -> p.endNanos() - p.beginNanos()).sum();

        assertThat(m.timesParked()).isEqualTo(3);
        assertThat(m.peakParked()).isEqualTo(1);
        assertThat(m.firstThread()).isEqualTo("seq-1");
        assertThat(m.threadTimeNanos()).isEqualTo(sum).isEqualTo(m.realTimeNanos()).isGreaterThanOrEqualTo(15_000_000L);
        assertThat(m.tally().lifeTimeNanos()).isEqualTo(waits.get(2).endNanos() - waits.get(0).beginNanos());
        assertThat(m.realLifeTimeUtilPct()).isLessThan(100.0);
        assertThat(m.avgParkNanos()).isCloseTo(sum / 3.0, within(EXACT));
        assertThat(m.avgHoldNanos()).isCloseTo(sum / 3.0, within(EXACT));
    }

    @Test
    void aParkStillOpenIsParkedNowFromTheAgentsSummary() {
        LockMetrics m = lock(analyze(0, 0), RecordedScenario.OPEN).orElseThrow();
        assertThat(m.firstFrames()).containsExactly("test.Open.park:1", "test.Open.run:2");
        assertThat(m.timesParked()).isEqualTo(1);
        assertThat(m.parkedNow()).isEqualTo(1);
        assertThat(m.peakParked()).isEqualTo(1);
        assertThat(m.firstThread()).isEqualTo("open-A");
        // a single event: no time accrues (Time(n) − Time(1) = 0) and no unpark to divide by
        assertThat(m.threadTimeNanos()).isZero();
        assertThat(m.avgHoldNanos()).isZero();
    }

    @Test
    void contendedSynchronizedIsAMonitorBlockedOnEntry() {
        LockMetrics m = lock(analyze(0, 0), ContendedMonitor.class.getName()).orElseThrow();
        assertThat(m.kind()).isEqualTo(LockKind.MONITOR);
        assertThat(m.timesParked()).isEqualTo(1);
        assertThat(m.parkedNow()).isZero();
        assertThat(m.peakParked()).isEqualTo(1);
        assertThat(m.firstThread()).isEqualTo("monitor-waiter");
        assertThat(m.firstFrames()).anyMatch(f -> f.contains("RecordedScenario.lambda$monitorContention"));
        assertThat(m.identityHash()).matches("[0-9a-f]+");
        assertThat(m.threadTimeNanos()).isEqualTo(m.realTimeNanos()).isPositive();
    }

    @Test
    void collectionThresholdSkipsTheFirstParksButCountsThem() {
        LockContention c = analyze(1, 0);
        LockMetrics seq = lock(c, RecordedScenario.SEQUENTIAL).orElseThrow();
        List<ParkWait> waits = parks(RecordedScenario.SEQUENTIAL);

        assertThat(seq.timesParked()).isEqualTo(3);
        assertThat(seq.firstThread()).isEqualTo("seq-2");
        assertThat(seq.threadTimeNanos()).isEqualTo((waits.get(1).endNanos() - waits.get(1).beginNanos())
                + (waits.get(2).endNanos() - waits.get(2).beginNanos()));
        assertThat(seq.tally().firstTime).isEqualTo(waits.get(1).beginNanos());
        // a summary made at another collection threshold is not used; the open park has no event
        assertThat(lock(c, RecordedScenario.OPEN)).isEmpty();
        assertThat(lock(c, ContendedMonitor.class.getName())).isEmpty();
        assertThat(lock(analyze(3, 0), RecordedScenario.SEQUENTIAL)).isEmpty();
    }

    @Test
    void printThresholdLeavesOutLocksWithFewerParksAndCountsThem() {
        LockContention all = analyze(0, 0);
        LockContention c = analyze(0, 2);
        assertThat(c.locks()).extracting(LockMetrics::className)
                .contains(RecordedScenario.OVERLAP, RecordedScenario.SEQUENTIAL)
                .doesNotContain(RecordedScenario.OPEN, ContendedMonitor.class.getName());
        assertThat(c.locks()).allSatisfy(m -> assertThat(m.timesParked()).isGreaterThanOrEqualTo(2));
        assertThat(c.belowPrintThreshold()).isEqualTo(all.locks().size() - c.locks().size()).isGreaterThanOrEqualTo(2);
        assertThat(all.belowPrintThreshold()).isZero();
    }

    @Test
    void locksAreRankedAndTheRecordingIsDescribed() {
        LockContention c = analyze(0, 0);
        assertThat(c.locks()).isSortedAccordingTo(LockTable.RANKING);
        assertThat(c.durationNanos()).isEqualTo(recording.durationNanos()).isPositive();
        assertThat(c.source()).isEqualTo(recording.source());
        assertThat(c.locks()).allSatisfy(m -> assertThat(m.totalExecutionNanos()).isEqualTo(c.durationNanos()));
        // deterministic: the same input gives the same output
        assertThat(recording.contention(ContentionOptions.DEFAULTS)).isEqualTo(c);
    }

    /**
     * One accounting: owner blame splits the same paired waits the table replays, so per lock its
     * spans (and condition waits) add up to the table's thread-time. A park still open counts up to
     * the lock's last event in the table (the J9 park-contention report §3.7.8 advances only at events) and up to the end
     * of the recording in blame, so there blame has at least the table's.
     */
    @Test
    void ownerBlameAddsUpToTheTablesWaitOfEveryLock() {
        BlameResult blame = recording.blame();
        Map<LockId, Long> blamed = new HashMap<>();
        blame.contentions().forEach(x -> blamed.merge(x.lock(), x.nanos(), Long::sum));
        blame.waits().forEach(w -> blamed.merge(w.lock(), w.nanos(), Long::sum));
        List<LockMetrics> locks = analyze(0, 0).locks();
        assertThat(locks).extracting(LockMetrics::className).contains(RecordedScenario.OVERLAP, RecordedScenario.OPEN,
                ContendedMonitor.class.getName());
        for (LockMetrics m : locks) {
            long nanos = blamed.getOrDefault(new LockId(m.kind(), m.className(), m.identityHash()), 0L);
            if (m.parkedNow() == 0) {
                assertThat(nanos).as("%s", m).isEqualTo(m.totalWaitNanos());
            } else {
                assertThat(nanos).as("%s", m).isGreaterThanOrEqualTo(m.totalWaitNanos());
            }
        }
    }
}
