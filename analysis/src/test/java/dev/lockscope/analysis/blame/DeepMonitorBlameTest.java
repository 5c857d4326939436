package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.DeepRelease;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.ThreadRef;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.lockscope.analysis.blame.RecordingBuilder.ns;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Owner blame of monitor waits from deep mode's contended releases ({@link DeepMonitorHolds}), hand-built events. */
class DeepMonitorBlameTest {
    private static final String MON = "app.S$Lock";
    private static final List<String> AT_A = List.of("app.S.siteA:11", "app.S.loop:3");
    private static final List<String> AT_B = List.of("app.S.siteB:21", "app.S.loop:4");
    private final ThreadRef t1 = new ThreadRef(1, 1001, "T1");
    private final ThreadRef t2 = new ThreadRef(2, 1002, "T2");
    private final ThreadRef t3 = new ThreadRef(3, 1003, "T3");
    private final BlameAnalysis blame = new BlameAnalysis();

    private void release(ThreadRef t, int hash, double atMs, double heldMs, List<String> frames) {
        blame.deepRelease(new DeepRelease(t, ns(atMs), MON, hash, heldMs < 0 ? -1 : ns(heldMs), frames));
    }

    private void enter(ThreadRef t, long address, double beginMs, double endMs, ThreadRef previous) {
        blame.monitorEnter(new MonitorEnter(t, MON, address, ns(beginMs), ns(endMs), previous, List.of("app.S.wait:1")));
    }

    private BlameResult result() {
        blame.finish(new RecordingInfo(Path.of("hand-built.jfr"), 0, ns(30), Map.of(1L, t1, 2L, t2, 3L, t3)));
        return blame.result();
    }

    /**
     * T1 holds from before anyone waits until 9 ms in siteA; T3 (which waited 6..9.5 ms) holds 9.5..12 in siteB;
     * T1 takes it back without contention at 12 and holds until 19 in siteA; T2 (waiting 5..19.2) gets it.
     * Every piece of T2's wait goes to the hold it fell in, the free moments to hand-off gaps.
     */
    @Test
    void aWaitIsSplitAtEveryReleaseAndBlamedOnTheReleasingChains() {
        release(t1, 0x1234, 9, -1, AT_A);
        enter(t3, 0x7f00, 6, 9.5, t1);
        release(t3, 0x1234, 12, 2.5, AT_B);
        release(t1, 0x1234, 19, 7, AT_A);
        enter(t2, 0x7f00, 5, 19.2, t1);
        BlameResult r = result();

        Map<String, Double> t2ByChain = BlameSums.byOwnerChain(r, "T2");
        assertThat(t2ByChain.get("app.S.siteA:11 <- app.S.loop:3")).isCloseTo(4 + 7, within(1e-6));
        assertThat(t2ByChain.get("app.S.siteB:21 <- app.S.loop:4")).isCloseTo(2.5, within(1e-6));
        assertThat(t2ByChain.get("")).as("free: released, not yet taken").isCloseTo(0.5 + 0.2, within(1e-6));
        assertThat(BlameSums.byOwner(r, "T2")).containsEntry("T1", 11.0).containsEntry("T3", 2.5);
        assertThat(BlameSums.byOwnerChain(r, "T3")).containsEntry("app.S.siteA:11 <- app.S.loop:3", 3.0);
        assertThat(r.contentions()).filteredOn(c -> c.cause().hasOwner())
                .allSatisfy(c -> assertThat(c.cause().chain()).isEqualTo(OwnerChain.DEEP_EXACT));
        assertThat(r.contentions()).filteredOn(c -> !c.cause().hasOwner())
                .allSatisfy(c -> assertThat(c.cause().chain()).isEqualTo(OwnerChain.HANDOFF_GAP));
    }

    /** Two monitors of one class: each wait is joined to the object its previous owner released last. */
    @Test
    void theWaitIsJoinedToTheObjectItsPreviousOwnerReleased() {
        release(t1, 0x1111, 4, -1, AT_A);
        release(t3, 0x2222, 6, -1, AT_B);
        enter(t2, 0x7f00, 1, 6.5, t3);
        BlameResult r = result();
        assertThat(BlameSums.byOwner(r, "T2")).containsEntry("T3", 5.0);
        assertThat(BlameSums.byOwnerChain(r, "T2")).containsEntry("app.S.siteB:21 <- app.S.loop:4", 5.0);
    }

    /** No release of the previous owner within the wait: deep mode did not see it, the estimate without deep mode stands. */
    @Test
    void aWaitWithoutItsHandOffReleaseIsLeftToTheEstimate() {
        release(t1, 0x1234, 2, -1, AT_A); // long before the wait: an earlier contention
        enter(t2, 0x7f00, 10, 15, t1);
        BlameResult r = result();
        assertThat(r.contentions()).isNotEmpty().noneMatch(c -> c.cause().chain() == OwnerChain.DEEP_EXACT);
        assertThat(BlameSums.byOwner(r, "T2")).containsEntry("T1", 5.0);
    }

    /** A release timed just before the waiter began (the holder's stack walk outlasted the waiter's spin) still joins. */
    @Test
    void aHandOffReleaseTimedJustBeforeTheWaitStillJoins() {
        release(t1, 0x1234, 9.9, -1, AT_A);
        enter(t2, 0x7f00, 10, 10.05, t1);
        BlameResult r = result();
        assertThat(r.contentions()).singleElement().satisfies(c -> assertThat(c.cause()).isEqualTo(Cause.HANDOFF_GAP));
    }
}
