package dev.lockscope.analysis;

import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The analysis on hand-built recordings: exact timestamps, so exact expected values. */
class LockContentionAnalysisExactTest {
    private static final ThreadRef T1 = new ThreadRef(1, 101, "t1");
    private static final ThreadRef T2 = new ThreadRef(2, 102, "t2");
    private static final ThreadRef T3 = new ThreadRef(3, 103, "t3");
    private static long seq;

    private static ParkWait park(ThreadRef t, String cls, int hash, long begin, long end) {
        seq++;
        return new ParkWait(t, cls, hash, begin, end, seq, end == LockRecording.OPEN ? 0 : seq, false, 0, null,
                0, 0, List.of("app.Code.wait" + t.name() + ":" + seq));
    }

    private static MonitorEnter enter(ThreadRef t, String cls, long address, long begin, long end) {
        return new MonitorEnter(t, cls, address, begin, end, null, List.of("app.Sync.run:" + begin));
    }

    private static LockRecording recording(long start, long end, List<ParkWait> parks, List<MonitorEnter> enters) {
        return new LockRecording(Path.of("hand.jfr"), start, end, Map.of(1L, T1, 2L, T2, 3L, T3), parks, List.of(),
                enters, List.of(), List.of(), List.of());
    }

    private static LockMetrics only(LockContention c, String cls) {
        return c.locks().stream().filter(m -> m.className().equals(cls)).findFirst().orElseThrow();
    }

    @Test
    void parksOnOneBlockerGiveAllFifteenMetrics() {
        // t1 0..30, t2 10..60, t3 40..100 on blocker A; recording 0..200
        LockRecording r = recording(0, 200, List.of(park(T1, "A", 0xa, 0, 30), park(T2, "A", 0xa, 10, 60),
                park(T3, "A", 0xa, 40, 100)), List.of());
        LockMetrics m = only(r.contention(ContentionOptions.DEFAULTS), "A");

        assertThat(m.kind()).isEqualTo(LockKind.PARK);
        assertThat(m.identityHash()).isEqualTo("a");
        assertThat(m.firstThread()).isEqualTo("t1");
        assertThat(m.firstFrames()).containsExactly("app.Code.waitt1:" + (seq - 2));
        assertThat(m.timesParked()).isEqualTo(3);
        assertThat(m.parkedNow()).isZero();
        assertThat(m.peakParked()).isEqualTo(2);
        assertThat(m.threadTimeNanos()).isEqualTo(140);
        assertThat(m.realTimeNanos()).isEqualTo(100);
        assertThat(m.avgParkNanos()).isCloseTo(140 / 3.0, within(1e-9));
        assertThat(m.avgHoldNanos()).isCloseTo(100 / 3.0, within(1e-9));
        assertThat(m.realTimeUtilPct()).isCloseTo(50.0, within(1e-9));
        assertThat(m.threadTimeUtilPct()).isCloseTo(70.0, within(1e-9));
        assertThat(m.realLifeTimeUtilPct()).isCloseTo(100.0, within(1e-9));
        assertThat(m.threadLifeTimeUtilPct()).isCloseTo(140.0, within(1e-9));
        assertThat(m.totalExecutionNanos()).isEqualTo(200);
    }

    /**
     * JFR writes a monitor wait at its end, so a long one arrives after the shorter ones that ended first; it counts
     * whole, at its time, though many other objects hold points meanwhile (160,000 short waits in a minute: more than
     * a bound per count of points holds, far fewer than the ten seconds the window keeps).
     */
    @Test
    void aLongMonitorWaitThatArrivesLateCountsWholeAmongManyObjects() {
        List<MonitorEnter> enters = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            for (int o = 0; o < 160; o++) {
                long begin = 60_000_000L * i + 1000L * o;
                enters.add(enter(T1, "Other", 0x1000 + o, begin, begin + 10));
            }
        }
        enters.add(enter(T2, "Slow", 0x1, 50_000_000_000L, 55_000_000_000L));
        enters.add(enter(T3, "Slow", 0x1, 51_000_000_000L, 52_000_000_000L));
        LockMetrics m = only(recording(0, 61_000_000_000L, List.of(), enters).contention(ContentionOptions.DEFAULTS), "Slow");
        assertThat(m.threadTimeNanos()).isEqualTo(6_000_000_000L);
        assertThat(m.realTimeNanos()).isEqualTo(5_000_000_000L);
        assertThat(m.peakParked()).isEqualTo(2);
    }

    @Test
    void monitorsBeyondTheFollowedBoundCountAtTheirSiteAndOwnerBlameFindsItsRow() {
        // a lock table's short-lived entries: more objects than are followed one by one, at one site
        int objects = dev.lockscope.core.FollowedLocks.DEFAULT_MAX + 5_000;
        List<MonitorEnter> enters = new java.util.ArrayList<>();
        for (int o = 0; o < objects; o++) {
            long begin = 10_000L * o;
            enters.add(new MonitorEnter(T1, "Entry", 0x1000 + o, begin, begin + 4_000, null, List.of("app.Table.lock:7")));
        }
        LockContention c = recording(0, 10_000L * objects, List.of(), enters).contention(ContentionOptions.DEFAULTS);
        LockMetrics site = c.sites().stream().filter(m -> m.className().equals("Entry")).findFirst().orElseThrow();
        assertThat(site.instances()).isEqualTo(objects);
        assertThat(site.timesParked()).isEqualTo(objects);
        assertThat(site.threadTimeNanos()).isEqualTo(4_000L * objects);
        assertThat(site.realTimeNanos()).isEqualTo(4_000L * objects);
        // the first objects were retired to the site's sum; blame of one of them belongs to the site's row
        assertThat(c.rowOf(dev.lockscope.core.LockId.monitor("Entry", 0x1000)))
                .isEqualTo(c.rowOf(dev.lockscope.core.LockId.monitor("Entry", 0x1000 + objects - 1)))
                .isEqualTo(site.id());
    }

    @Test
    void blockersAreKeyedByClassAndIdentityHash() {
        LockRecording r = recording(0, 100, List.of(park(T1, "A", 1, 0, 10), park(T2, "A", 2, 0, 20),
                park(T3, "B", 1, 0, 30), park(T1, "A", 1, 20, 25)), List.of());
        List<LockMetrics> locks = r.contention(ContentionOptions.DEFAULTS).locks();
        assertThat(locks).extracting(m -> m.className() + "@" + m.identityHash() + "x" + m.timesParked())
                .containsExactly("B@1x1", "A@2x1", "A@1x2");
    }

    @Test
    void openParksAreParkedNowAndStopAccruingAtTheLastEvent() {
        // t1 parks at 0 and never returns; t2 parks 10..20
        LockRecording r = recording(0, 100, List.of(park(T1, "A", 1, 0, LockRecording.OPEN), park(T2, "A", 1, 10, 20)),
                List.of());
        LockMetrics m = only(r.contention(ContentionOptions.DEFAULTS), "A");
        assertThat(m.parkedNow()).isEqualTo(1);
        assertThat(m.threadTimeNanos()).isEqualTo(10 + 2 * 10);
        assertThat(m.realTimeNanos()).isEqualTo(20);
        assertThat(m.avgHoldNanos()).isCloseTo(20.0, within(1e-9)); // 20 / (2 − 1)
    }

    @Test
    void firstThreadIsTheParkThatReachesTheCollectionThreshold() {
        LockRecording r = recording(0, 100, List.of(park(T1, "A", 1, 0, 10), park(T2, "A", 1, 20, 30),
                park(T3, "A", 1, 40, 50)), List.of());
        assertThat(only(r.contention(new ContentionOptions(2, 0)), "A").firstThread()).isEqualTo("t3");
        assertThat(only(r.contention(new ContentionOptions(1, 0)), "A").firstThread()).isEqualTo("t2");
        assertThat(r.contention(new ContentionOptions(3, 0)).locks()).isEmpty();
        assertThat(r.contention(new ContentionOptions(3, 0)).belowPrintThreshold()).isZero();
    }

    @Test
    void peakParkedRaceOfSeedSection531() {
        // three threads, one lock: t1 and t2 wait, t3 releases (waking t1) and parks again at 25,
        // before t1's return from park is recorded at 26: all three are counted parked at once
        LockRecording r = recording(0, 100, List.of(park(T1, "A", 1, 0, 26), park(T2, "A", 1, 5, 60),
                park(T3, "A", 1, 25, 70)), List.of());
        LockMetrics m = only(r.contention(ContentionOptions.DEFAULTS), "A");
        assertThat(m.peakParked()).isEqualTo(3);
    }

    @Test
    void monitorsAreKeyedByClassAndAddressAndCountBlockedEntries() {
        LockRecording r = recording(0, 1000, List.of(), List.of(
                enter(T1, "app.Cache", 0x7f00, 0, 100), enter(T2, "app.Cache", 0x7f00, 50, 150),
                enter(T3, "app.Cache", 0x8f00, 0, 10)));
        LockContention c = r.contention(ContentionOptions.DEFAULTS);
        assertThat(c.locks()).hasSize(2);
        LockMetrics hot = c.locks().get(0);
        assertThat(hot.kind()).isEqualTo(LockKind.MONITOR);
        assertThat(hot.identityHash()).isEqualTo("7f00");
        assertThat(hot.firstThread()).isEqualTo("t1");
        assertThat(hot.firstFrames()).containsExactly("app.Sync.run:0");
        assertThat(hot.timesParked()).isEqualTo(2);
        assertThat(hot.peakParked()).isEqualTo(2);
        assertThat(hot.threadTimeNanos()).isEqualTo(200);
        assertThat(hot.realTimeNanos()).isEqualTo(150);
        assertThat(hot.realTimeUtilPct()).isCloseTo(15.0, within(1e-9));
        assertThat(c.locks().get(1).identityHash()).isEqualTo("8f00");
    }

    @Test
    void printThresholdCountsWhatItLeavesOut() {
        LockRecording r = recording(0, 100, List.of(park(T1, "A", 1, 0, 10), park(T2, "A", 1, 20, 30),
                park(T3, "B", 1, 0, 50)), List.of(enter(T1, "M", 1, 0, 5)));
        LockContention c = r.contention(new ContentionOptions(0, 2));
        assertThat(c.locks()).extracting(LockMetrics::className).containsExactly("A");
        assertThat(c.belowPrintThreshold()).isEqualTo(2);
    }

    @Test
    void emptyRecordingHasNoLocks() {
        LockContention c = recording(0, 0, List.of(), List.of()).contention(ContentionOptions.DEFAULTS);
        assertThat(c.locks()).isEmpty();
        assertThat(c.belowPrintThreshold()).isZero();
    }
}
