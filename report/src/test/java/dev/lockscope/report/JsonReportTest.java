package dev.lockscope.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JsonReportTest {
    /** The contract of issue 3 item 4, in the order every entry lists them. */
    static final List<String> CONTRACT = List.of("kind", "className", "identityHash", "totalWaitNanos",
            "firstThread", "firstFrames", "timesParked", "parkedNow", "peakParked", "threadTimeNanos",
            "realTimeNanos", "avgParkNanos", "avgHoldNanos", "realTimeUtilPct", "threadTimeUtilPct",
            "realLifeTimeUtilPct", "threadLifeTimeUtilPct");

    private static JsonNode parse() throws Exception {
        return new ObjectMapper().readTree(JsonReport.write(JsonReport.table(Fixtures.contention())));
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void topLevelMembersInStableOrder() throws Exception {
        JsonNode root = parse();
        assertThat(names(root)).containsExactly("schemaVersion", "recording", "options", "locksBelowPrintThreshold", "sampledParks", "stackBudget", "profilersOwnWaits", "locks");
        assertThat(names(root.get("stackBudget"))).containsExactly("perSecond", "parksDropped", "parkWaitDroppedNanos", "unparksDropped");
        assertThat(root.at("/stackBudget/parksDropped").longValue()).as("a recording without the event").isZero();
        assertThat(root.get("schemaVersion").intValue()).isEqualTo(JsonReport.SCHEMA_VERSION);
        assertThat(names(root.get("recording"))).containsExactly("path", "start", "startEpochNanos", "durationNanos");
        assertThat(root.at("/recording/path").textValue()).isEqualTo("/tmp/app.jfr");
        assertThat(root.at("/recording/start").textValue()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(root.at("/recording/durationNanos").longValue()).isEqualTo(2 * Fixtures.SECOND);
        assertThat(root.at("/options/printThreshold").longValue()).isEqualTo(1);
        assertThat(root.get("locksBelowPrintThreshold").intValue()).isEqualTo(3);
    }

    @Test
    void everyLockHasTheContractFieldsFirstInContractOrder() throws Exception {
        for (JsonNode lock : parse().get("locks")) {
            assertThat(names(lock).subList(0, CONTRACT.size())).isEqualTo(CONTRACT);
        }
    }

    @Test
    void fieldTypesAndValues() throws Exception {
        JsonNode park = parse().get("locks").get(0);
        assertThat(park.get("kind").textValue()).isEqualTo("park");
        assertThat(park.get("className").textValue()).isEqualTo("java.util.concurrent.locks.ReentrantLock$NonfairSync");
        assertThat(park.get("identityHash").isTextual()).isTrue();
        assertThat(park.get("identityHash").textValue()).isEqualTo("1b2c3d");
        assertThat(park.get("firstThread").textValue()).isEqualTo("worker-1");
        assertThat(park.get("firstFrames").isArray()).isTrue();
        assertThat(park.get("firstFrames").get(0).textValue()).isEqualTo("java.util.concurrent.locks.LockSupport.park:211");
        for (String integral : List.of("totalWaitNanos", "timesParked", "parkedNow", "peakParked", "threadTimeNanos",
                "realTimeNanos", "avgParkNanos", "avgHoldNanos")) {
            assertThat(park.get(integral).isIntegralNumber()).as(integral).isTrue();
        }
        assertThat(park.get("totalWaitNanos").longValue()).isEqualTo(140_000_000L);
        assertThat(park.get("threadTimeNanos").longValue()).isEqualTo(140_000_000L);
        assertThat(park.get("realTimeNanos").longValue()).isEqualTo(100_000_000L);
        assertThat(park.get("timesParked").longValue()).isEqualTo(3);
        assertThat(park.get("peakParked").intValue()).isEqualTo(2);
        assertThat(park.get("parkedNow").intValue()).isZero();
        assertThat(park.get("avgParkNanos").longValue()).isEqualTo(46_666_667L); // 140 ms / 3, rounded
        assertThat(park.get("avgHoldNanos").longValue()).isEqualTo(33_333_333L); // 100 ms / 3
        assertThat(park.get("realTimeUtilPct").isNumber()).isTrue();
        assertThat(park.get("realTimeUtilPct").doubleValue()).isEqualTo(50.0);
        assertThat(park.get("threadTimeUtilPct").doubleValue()).isEqualTo(70.0);
        assertThat(park.get("realLifeTimeUtilPct").doubleValue()).isEqualTo(100.0);
        assertThat(park.get("threadLifeTimeUtilPct").doubleValue()).isEqualTo(140.0);

        JsonNode monitor = parse().get("locks").get(1);
        assertThat(monitor.get("kind").textValue()).isEqualTo("monitor");
        assertThat(monitor.get("parkedNow").intValue()).isEqualTo(1);
        assertThat(monitor.get("avgHoldNanos").longValue()).isEqualTo(5_000_000L); // 5 ms / (2 - 1)
        assertThat(monitor.get("realLifeTimeUtilPct").doubleValue()).isEqualTo(100.0 * 5 / 6, org.assertj.core.data.Offset.offset(1e-4));
    }

    @Test
    void locksAreSortedByTotalWaitDescending() throws Exception {
        JsonNode locks = parse().get("locks");
        assertThat(locks).hasSize(2);
        assertThat(locks.get(0).get("totalWaitNanos").longValue())
                .isGreaterThanOrEqualTo(locks.get(1).get("totalWaitNanos").longValue());
    }

    @Test
    void percentagesAreWrittenWithoutExponent() {
        String json = JsonReport.write(JsonReport.table(Fixtures.contention()));
        assertThat(json).contains("\"realTimeUtilPct\" : 50.0000").doesNotContainPattern("[0-9][eE][+-]?[0-9]");
        assertThat(json).endsWith("}\n");
    }

    @Test
    void writeLeavesTheWriterOpenAndCallersCanExtendTheTree() throws Exception {
        var tree = JsonReport.table(Fixtures.contention());
        tree.putArray("blame");
        StringWriter out = new StringWriter();
        JsonReport.write(tree, out);
        out.write("more");
        assertThat(names(new ObjectMapper().readTree(out.toString().replace("more", "")))).endsWith("locks", "blame");
    }

    /** The profiler's own lock leaves the model once (LockContention.withoutProfilersOwn): JSON counts its waits, lists no row. */
    @Test
    void theProfilersOwnLockIsACountNotALock() throws Exception {
        dev.lockscope.core.LockMetrics jfr = new dev.lockscope.core.LockMetrics(dev.lockscope.core.LockKind.MONITOR,
                "java.lang.Object", "abc", "JFR Periodic Tasks", List.of("jdk.jfr.internal.PlatformRecorder.periodicTask:499"),
                dev.lockscope.core.ParkTally.empty(0).park(0).unpark(5).park(6).unpark(9), 1_000_000);
        var c = Fixtures.contention();
        var all = new dev.lockscope.analysis.LockContention(c.source(), c.startNanos(), c.durationNanos(), c.options(),
                dev.lockscope.core.LockTable.ranked(java.util.stream.Stream.concat(c.locks().stream(), java.util.stream.Stream.of(jfr)).toList()),
                0);
        JsonNode root = new ObjectMapper().readTree(JsonReport.write(JsonReport.table(all.withoutProfilersOwn())));
        assertThat(root.get("profilersOwnWaits").longValue()).isEqualTo(2);
        assertThat(root.get("locks")).hasSize(c.locks().size());
        root.get("locks").forEach(lock -> assertThat(lock.get("className").textValue()).isNotEqualTo("java.lang.Object"));
        assertThat(TextReport.render(all.withoutProfilersOwn())).contains("2 waits on the profiler's own locks");
    }
}
