package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.ThreadRef;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.lockscope.analysis.blame.RecordingBuilder.COND;
import static dev.lockscope.analysis.blame.RecordingBuilder.LOCK;
import static dev.lockscope.analysis.blame.RecordingBuilder.RL;
import static dev.lockscope.analysis.blame.RecordingBuilder.RWL;
import static dev.lockscope.analysis.blame.RecordingBuilder.UNLOCK;
import static dev.lockscope.analysis.blame.RecordingBuilder.chain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ReleaseBlameAnalyzerTest {
    private final RecordingBuilder b = new RecordingBuilder();
    private final ThreadRef t1 = b.thread(1, "T1");
    private final ThreadRef t2 = b.thread(2, "T2");
    private final ThreadRef t3 = b.thread(3, "T3");
    private final ThreadRef t4 = b.thread(4, "T4");

    @Test
    void fig44WithReentrantLockSplitsT3BetweenT1AndT2() {
        b.park(t2, RL, 7, 10, 100.1, 1, 3, chain(LOCK, "app.Fig.t2:1"))
                .park(t3, RL, 7, 20, 150.1, 2, 4, chain(LOCK, "app.Fig.t3:1"))
                .unpark(t1, 100, 3, t2, RL, 7, chain(UNLOCK, "app.Fig.t1:9"))
                .unpark(t2, 150, 4, t3, RL, 7, chain(UNLOCK, "app.Fig.t2:9"));
        BlameResult r = b.build().blame();

        assertThat(BlameSums.byOwner(r, "T2").get("T1")).isCloseTo(90, within(1e-6));
        assertThat(BlameSums.byOwner(r, "T3").get("T1")).isCloseTo(80, within(1e-6));
        assertThat(BlameSums.byOwner(r, "T3").get("T2")).isCloseTo(50, within(1e-6)); // incl. T2 waking up at 100..100.1
        assertThat(BlameSums.byOwner(r, "T3").get("?")).isCloseTo(0.1, within(1e-6)); // its own wake-up after T2's unpark
        assertThat(r.contentions()).filteredOn(c -> !c.cause().hasOwner()).isNotEmpty()
                .allSatisfy(c -> assertThat(Aspect.OWNER_METHOD.keyOf(c, ChainView.FILTERED)).isEqualTo("(hand-off gap)"));
        Contention onT1 = r.contentions().stream().filter(c -> c.waiter().equals(t2) && c.cause().owner().equals(t1))
                .findFirst().orElseThrow();
        assertThat(onT1.cause().chain()).isEqualTo(OwnerChain.EXACT);
        assertThat(ChainView.FILTERED.method(onT1.cause().frames())).isEqualTo("app.Fig.t1");
        assertThat(r.totalNanos()).isEqualTo(RecordingBuilder.ns(90.1 + 130.1));
    }

    /**
     * What the releaser did inside its hold, from its own recorded waits: T1 holds the lock in app.C.get and sleeps
     * 20 ms in app.C.slowLoad under it (a loader), then 5 ms in app.C.get itself; T2 waited 5..30 ms. The cause
     * carries the loader's frames (the most of the span), not T1's own sleep in get (nothing inside it), and not
     * what T1 did before, elsewhere (app.C.other). JFR's sleeps come after lockscope's unparks (as they do from a
     * file, in their own reorder window): the release is blamed once they are read.
     */
    @Test
    void theReleasersCodeInsideItsHoldIsWhatItMostlyDid() {
        b.sleep(t1, 0, 4, List.of("java.lang.Thread.sleep:-1", "app.C.other:3", "app.C.run:1"))
                .sleep(t1, 5, 25, List.of("java.lang.Thread.sleep:-1", "app.C.slowLoad:40", "app.C.get:12", "app.C.run:1"))
                .sleep(t1, 25, 30, List.of("java.lang.Thread.sleep:-1", "app.C.get:14", "app.C.run:1"))
                .park(t2, RL, 7, 5, 30.1, 1, 2, chain(LOCK, "app.C.get:11"))
                .unpark(t1, 30, 2, t2, RL, 7, chain(UNLOCK, "app.C.get:15", "app.C.run:1"));
        BlameResult r = b.build().blame();
        Contention onT1 = r.contentions().stream().filter(c -> c.cause().owner().equals(t1)).findFirst().orElseThrow();
        assertThat(onT1.cause().chain()).isEqualTo(OwnerChain.EXACT);
        assertThat(onT1.cause().inside()).containsExactly("java.lang.Thread.sleep:-1", "app.C.slowLoad:40");
        assertThat(onT1.nanos()).isEqualTo(RecordingBuilder.ns(25));
    }

    @Test
    void aReleaserRecordedDoingNothingInsideItsHoldHasNothingInside() {
        b.sleep(t1, 5, 30, List.of("java.lang.Thread.sleep:-1", "app.C.get:14", "app.C.run:1"))
                .park(t2, RL, 7, 5, 30.1, 1, 2, chain(LOCK, "app.C.get:11"))
                .unpark(t1, 30, 2, t2, RL, 7, chain(UNLOCK, "app.C.get:15", "app.C.run:1"));
        Contention onT1 = b.build().blame().contentions().stream().filter(c -> c.cause().owner().equals(t1)).findFirst().orElseThrow();
        assertThat(onT1.cause().inside()).isEmpty();
        assertThat(onT1.nanos()).isEqualTo(RecordingBuilder.ns(25));
    }

    /**
     * More releases wait for their releaser's events than {@link ParkBlame#PENDING_SPANS}: the oldest are blamed
     * with what is known of the releaser then (bounded memory), and not one nanosecond is lost or counted twice.
     */
    @Test
    void releasesBeyondThePendingBoundAreBlamedAllTheSame() {
        int n = ParkBlame.PENDING_SPANS + 1000;
        for (int i = 0; i < n; i++) {
            double at = 10.0 * i;
            b.park(t2, RL, 7, at + 1, at + 5.1, 2L * i + 1, 2L * i + 2, chain(LOCK, "app.C.get:11"))
                    .unpark(t1, at + 5, 2L * i + 2, t2, RL, 7, chain(UNLOCK, "app.C.get:15"));
        }
        b.sleep(t1, 1, 5, List.of("java.lang.Thread.sleep:-1", "app.C.slowLoad:40", "app.C.get:12"));
        BlameResult r = b.build().blame();
        assertThat(BlameSums.byOwner(r, "T2").get("T1")).isCloseTo(4.0 * n, within(1e-6));
        // the first release was blamed before the releaser's sleep was read: nothing known inside it
        assertThat(r.contentions()).filteredOn(c -> c.cause().owner().equals(t1)).extracting(c -> c.cause().inside())
                .containsOnly(List.of());
    }

    /**
     * With short parks sampled: T2 gets the lock by a hand-off at 100.5 (its count of unrecorded unparks 2),
     * then hands it on unrecorded (to a waiter whose park was not sampled) and later, recorded, at 120 (count
     * 3): that span holds more than one hold and is not counted. T3, woken by it, holds 120.2 to 125 with no
     * unrecorded unpark between: counted.
     */
    @Test
    void aHoldSpanningAnUnrecordedHandOffIsNotCounted() {
        b.park(t2, RL, 7, 10, 100.5, 1, 2, LOCK).unrecordedUnparks(2)
                .unpark(t1, 100, 2, t2, RL, 7, chain(UNLOCK, "app.H.t1:1"))
                .park(t3, RL, 7, 20, 120.2, 1, 2, LOCK).unrecordedUnparks(0)
                .unpark(t2, 120, 2, t3, RL, 7, chain(UNLOCK, "app.H.t2:1"), 3)
                .unpark(t3, 125, 1, t4, RL, 7, chain(UNLOCK, "app.H.t3:1"), 0)
                .park(t4, RL, 7, 121, 125.3, 0, 1, LOCK);
        BlameResult r = b.build().blame();
        assertThat(r.handoffHolds()).singleElement().satisfies(h -> {
            assertThat(h.holds()).isEqualTo(1);
            assertThat(h.nanos()).isEqualTo(RecordingBuilder.ns(125) - RecordingBuilder.ns(120.2));
        });
    }

    /**
     * Fig. 4.4 with T3's park sampled (it stands for 4 parks like it: the agent recorded it with probability
     * 1/4): each of its spans counts 4 times, T2's recorded-for-itself park once, so the totals estimate all
     * parks' and the owners' shares of T3's wait stay as they were.
     */
    @Test
    void aSampledParksSpansCountItsWeightTimes() {
        b.park(t2, RL, 7, 10, 100.1, 1, 3, chain(LOCK, "app.Fig.t2:1"))
                .park(t3, RL, 7, 20, 150.1, 2, 4, chain(LOCK, "app.Fig.t3:1")).sampled(4)
                .unpark(t1, 100, 3, t2, RL, 7, chain(UNLOCK, "app.Fig.t1:9"))
                .unpark(t2, 150, 4, t3, RL, 7, chain(UNLOCK, "app.Fig.t2:9"));
        BlameResult r = b.build().blame();

        assertThat(BlameSums.byOwner(r, "T2").get("T1")).isCloseTo(90, within(1e-6));
        assertThat(BlameSums.byOwner(r, "T3").get("T1")).isCloseTo(4 * 80, within(1e-6));
        assertThat(BlameSums.byOwner(r, "T3").get("T2")).isCloseTo(4 * 50, within(1e-6));
        assertThat(BlameSums.byOwner(r, "T3").get("?")).isCloseTo(4 * 0.1, within(1e-6));
        assertThat(r.totalNanos()).isEqualTo(RecordingBuilder.ns(90.1 + 4 * 130.1));
    }

    /** Hofer Fig. 4.6: T3 barges; T2 and T4 are blamed on T1 and T3, though T4 was never unparked by them. */
    @Test
    void fig46BargingBlamesEverySuccessiveOwner() {
        b.park(t2, RL, 7, 10, 101, 1, 3, LOCK)
                .park(t4, RL, 7, 20, 151, 2, 6, LOCK)
                .unpark(t1, 100, 3, t2, RL, 7, chain(UNLOCK, "app.B.t1:1"))
                .park(t2, RL, 7, 102, 131, 4, 5, LOCK) // T2 lost to the barging T3 and parked again
                .unpark(t3, 130, 5, t2, RL, 7, chain(UNLOCK, "app.B.t3:1"))
                .unpark(t2, 150, 6, t4, RL, 7, chain(UNLOCK, "app.B.t2:1"));
        BlameResult r = b.build().blame();

        assertThat(BlameSums.byOwner(r, "T2")).containsEntry("T1", 90.0).containsEntry("T3", 28.0).containsEntry("?", 2.0);
        assertThat(BlameSums.byOwner(r, "T4")).containsEntry("T1", 80.0).containsEntry("T3", 30.0)
                .containsEntry("T2", 20.0).containsEntry("?", 1.0);
    }

    /**
     * Hold times between hand-offs: T2 gets the lock from T1 at its wake-up (100.5) and hands it on at
     * 110: 9.5 ms. T3, woken at 110, loses it to T2 barging back (T3 parks again); T2's next release at
     * 113 ends a 3 ms hold. T3 then gets it at 113.2 and releases with nobody waiting (no unpark): not seen.
     */
    @Test
    void holdsAreMeasuredBetweenHandOffsIncludingABargingOwner() {
        b.park(t2, RL, 7, 10, 100.5, 1, 2, LOCK)
                .unpark(t1, 100, 2, t2, RL, 7, chain(UNLOCK, "app.H.t1:1"))
                .park(t3, RL, 7, 20, 110.2, 1, 2, LOCK)
                .unpark(t2, 110, 2, t3, RL, 7, chain(UNLOCK, "app.H.t2:1"))
                .park(t3, RL, 7, 110.3, 113.2, 2, 3, LOCK)
                .unpark(t2, 113, 3, t3, RL, 7, chain(UNLOCK, "app.H.t2:2"));
        BlameResult r = b.build().blame();
        assertThat(r.handoffHolds()).singleElement().satisfies(h -> {
            assertThat(h.lock()).isEqualTo(LockId.blocker(RL, 7));
            assertThat(h.holds()).isEqualTo(2);
            assertThat(h.nanos()).isEqualTo(RecordingBuilder.ns(9.5) + RecordingBuilder.ns(3));
        });
    }

    @Test
    void readWriteLockNamesWriterExactlyAndOnlyTheLastReader() {
        List<String> readLock = chain(List.of("java.util.concurrent.locks.LockSupport.park:211",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire:715",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireShared:1027"), "app.R.read:1");
        List<String> propagate = List.of("java.util.concurrent.locks.LockSupport.unpark:177",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer.signalNextIfShared:620",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire:760", "app.R.read:1");
        // W (t1) holds the write lock; readers T2, T3 wait; W's unlock wakes T2, T2 wakes T3 from acquire.
        b.park(t2, RWL, 9, 10, 50.5, 1, 3, readLock)
                .park(t3, RWL, 9, 20, 51, 2, 4, readLock)
                .unpark(t1, 50, 3, t2, RWL, 9, chain(UNLOCK, "app.R.write:2"))
                .unpark(t2, 50.6, 4, t3, RWL, 9, propagate)
                // then T4 (writer) waits for readers T2 and T3; T3 is the last to leave and wakes it
                .park(t4, RWL, 9, 60, 90.5, 5, 6, chain(LOCK, "app.R.write:1"))
                .unpark(t3, 90, 6, t4, RWL, 9, chain(UNLOCK, "app.R.read:3"));
        BlameResult r = b.build().blame();

        assertThat(BlameSums.byOwner(r, "T2")).containsEntry("T1", 40.0);
        assertThat(BlameSums.byOwner(r, "T3").get("T1")).isCloseTo(30.0, within(1e-6));
        assertThat(BlameSums.byOwner(r, "T3").get("?")).isCloseTo(1.0, within(1e-6)); // from W's release to its own wake-up
        assertThat(BlameSums.byOwner(r, "T3")).doesNotContainKey("T2"); // T2's unpark from acquire is no release
        assertThat(BlameSums.byOwner(r, "T4")).containsEntry("T3", 30.0);
    }

    @Test
    void conditionAwaitIsAWaitWithItsNotifierAndTheReacquisitionIsFlagged() {
        List<String> await = chain(List.of("java.util.concurrent.locks.LockSupport.park:211",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await:1623"), "app.C.take:1");
        List<String> reacquire = chain(List.of("java.util.concurrent.locks.LockSupport.park:211",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire:715",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await:1640"), "app.C.take:1");
        b.park(t2, COND, 5, 0, 50.2, 1, 2, await)
                .unpark(t1, 50, 2, t2, COND, 5, chain(UNLOCK, "app.C.put:1"))
                .park(t2, RL, 6, 51, 70.1, 3, 4, reacquire)
                .unpark(t3, 70, 4, t2, RL, 6, chain(UNLOCK, "app.C.other:1"));
        BlameResult r = b.build().blame();

        assertThat(r.waits()).singleElement().satisfies(w -> {
            assertThat(w.notifier()).isEqualTo(t1);
            assertThat(w.nanos()).isEqualTo(RecordingBuilder.ns(50.2));
        });
        assertThat(r.contentions()).allSatisfy(c -> assertThat(c.afterWait()).isTrue());
        assertThat(BlameSums.byOwner(r, "T2")).containsEntry("T3", 19.0);
    }

    @Test
    void openParkEndsAtRecordingEndAndItsTailIsUnknown() {
        b.park(t2, RL, 7, 10, -1, 1, 0, LOCK).unpark(t4, 30, 2, t3, RL, 7, UNLOCK).endAt(100);
        LockRecording rec = b.build();
        BlameResult r = rec.blame();
        assertThat(BlameSums.byOwner(r, "T2")).containsEntry("T4", 20.0).containsEntry("?", 70.0);
    }
}
