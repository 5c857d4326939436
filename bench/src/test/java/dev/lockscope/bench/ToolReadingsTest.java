package dev.lockscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockscope.bench.ToolReadings.LockEvent;
import dev.lockscope.bench.ToolReadings.Reading;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Reading the tools' outputs: locks are told apart by the workload's call sites in their stacks. */
class ToolReadingsTest {
    private static final String W = "dev.lockscope.bench.GroundTruthWorkload";
    private static final Map<String, Set<String>> SITES = new LinkedHashMap<>(Map.of(
            "L", Set.of("siteA", "siteB"), "rare", Set.of("rareSection")));

    @Test
    void siteIsTheInnermostWorkloadSiteFrame() {
        assertThat(ToolReadings.siteOf(List.of(W + ".hold:172", W + ".siteB:153", W + ".siteA:149"), Set.of("siteA", "siteB")))
                .isEqualTo("siteB");
        assertThat(ToolReadings.siteOf(List.of("java.util.concurrent.locks.LockSupport.park", W + ".siteA"), Set.of("siteA")))
                .isEqualTo("siteA");
        assertThat(ToolReadings.siteOf(List.of("other.Class.siteA", W + ".lambda$main$1"), Set.of("siteA"))).isNull();
        assertThat(ToolReadings.siteOf(List.of(W + ".siteAB"), Set.of("siteA"))).isNull();
    }

    @Test
    void lockscopeJsonWaitHoldAndOwnerShares() throws Exception {
        JsonNode doc = new ObjectMapper().readTree("""
                {"locks": [
                  {"className": "X", "totalWaitNanos": 1000, "avgHoldNanos": 50, "avgHoldFromHandoffsNanos": 48, "handoffHolds": 20,
                   "firstFrames": ["%1$s.hold:1", "%1$s.siteA:2"]},
                  {"className": "Y", "totalWaitNanos": 300, "avgHoldNanos": 30, "firstFrames": ["%1$s.hold:1", "%1$s.rareSection:9"]},
                  {"className": "Z", "totalWaitNanos": 99999, "avgHoldNanos": 7, "firstFrames": ["elsewhere.Main.run"]}],
                 "blame": [
                  {"waiterFrames": ["%1$s.siteB:3"], "ownerFrames": ["%1$s.hold:1", "%1$s.siteA:2"], "nanos": 600},
                  {"waiterFrames": ["%1$s.siteA:2"], "ownerFrames": ["%1$s.siteB:3"], "nanos": 100},
                  {"waiterFrames": ["%1$s.siteA:2"], "ownerFrames": [], "nanos": 300},
                  {"waiterFrames": ["%1$s.rareSection:9"], "ownerFrames": ["%1$s.rareSection:9"], "nanos": 300},
                  {"waiterFrames": ["elsewhere.Main.run"], "ownerFrames": ["%1$s.siteA:2"], "nanos": 5000}]}
                """.formatted(W));
        Map<String, Reading> r = ToolReadings.fromLockscope(doc, SITES);
        Reading l = r.get("L");
        assertThat(l.waitNanos()).isEqualTo(1000);
        assertThat(l.meanHoldNanos()).isEqualTo(50);
        assertThat(l.handoffHoldNanos()).isEqualTo(48);
        assertThat(r.get("rare").handoffHoldNanos()).isNaN(); // no hand-off seen
        // unknown owners stay in the denominator; other locks' rows do not count
        assertThat(l.ownerShares().get("siteA")).isCloseTo(0.6, within(1e-12));
        assertThat(l.ownerShares().get("siteB")).isCloseTo(0.1, within(1e-12));
        assertThat(r.get("rare").waitNanos()).isEqualTo(300);
        assertThat(r.get("rare").ownerShares().get("rareSection")).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void lockscopeWithoutTheLockReportsZeroWaitAndNoHold() throws Exception {
        Reading l = ToolReadings.fromLockscope(new ObjectMapper().readTree("{\"locks\": [], \"blame\": []}"), SITES).get("L");
        assertThat(l.waitNanos()).isZero();
        assertThat(l.meanHoldNanos()).isNaN();
        assertThat(l.ownerShares().get("siteA")).isNaN();
    }

    @Test
    void jfrEventsSumPerLockSkippingParksWithoutBlocker() {
        List<LockEvent> events = List.of(
                new LockEvent("jdk.ThreadPark", "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                        List.of("jdk.internal.misc.Unsafe.park", W + ".hold", W + ".siteA"), 100),
                new LockEvent("jdk.JavaMonitorEnter", W + "$Monitor", List.of(W + ".hold", W + ".siteB"), 20),
                new LockEvent("jdk.ThreadPark", "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                        List.of(W + ".hold", W + ".rareSection"), 7),
                new LockEvent("jdk.ThreadPark", null, List.of("java.util.concurrent.locks.LockSupport.parkNanos", W + ".siteA"), 1000),
                new LockEvent("jdk.ThreadPark", "java.util.concurrent.locks.ReentrantLock$NonfairSync", List.of("other.Main.run"), 5000));
        Map<String, Reading> r = ToolReadings.fromLockEvents(events, SITES);
        assertThat(r.get("L").waitNanos()).isEqualTo(120);
        assertThat(r.get("rare").waitNanos()).isEqualTo(7);
        assertThat(r.get("L").meanHoldNanos()).isNaN();
        assertThat(r.get("L").ownerShares()).isEmpty();
    }
}
