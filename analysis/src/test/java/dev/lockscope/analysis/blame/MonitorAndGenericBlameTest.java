package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.LockKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.lockscope.analysis.blame.RecordingBuilder.SEMAPHORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MonitorAndGenericBlameTest {
    private static final String MON = "app.Fig$Lock";
    private final RecordingBuilder b = new RecordingBuilder();
    private final ThreadRef t1 = b.thread(1, "T1");
    private final ThreadRef t2 = b.thread(2, "T2");
    private final ThreadRef t3 = b.thread(3, "T3");

    @Test
    void fig44WithMonitorSplitsAtTheHandOffSeenByTheOtherWaiter() {
        b.enter(t2, MON, 0x7f00, 10, 100, t1, List.of("app.Fig.t2:5", "app.Fig.run:1"))
                .enter(t3, MON, 0x7f00, 20, 150, t2, List.of("app.Fig.t3:5"))
                .sample(t1, 50, List.of("app.Fig.t1busy:7"));
        BlameResult r = b.build().blame();

        assertThat(BlameSums.byOwner(r, "T2")).containsEntry("T1", 90.0).hasSize(1);
        assertThat(BlameSums.byOwner(r, "T3")).containsEntry("T1", 80.0).containsEntry("T2", 50.0).hasSize(2);
        Contention onT2 = r.contentions().stream().filter(c -> c.cause().owner().equals(t2)).findFirst().orElseThrow();
        assertThat(onT2.cause().chain()).isEqualTo(OwnerChain.ACQUISITION_SITE);
        assertThat(onT2.cause().frames()).containsExactly("app.Fig.t2:5", "app.Fig.run:1");
        Contention onT1 = r.contentions().stream().filter(c -> c.waiter().equals(t3) && c.cause().owner().equals(t1))
                .findFirst().orElseThrow();
        // t1busy was never seen entering the monitor: T1's stack there may be from outside its hold, and is labelled so
        assertThat(onT1.cause().chain()).isEqualTo(OwnerChain.SAMPLED_OUTSIDE_HOLD);
        assertThat(onT1.cause().frames()).containsExactly("app.Fig.t1busy:7");
        assertThat(onT1.cause().inside()).isEmpty();
    }

    /** T1 got the monitor at X (contended), handed it to T2, took it back uncontended: X is stale for T3's wait. */
    @Test
    void acquisitionSiteBeforeAHandOffByTheOwnerIsNotUsed() {
        ThreadRef t4 = b.thread(4, "T4");
        b.enter(t1, MON, 0x7f00, 0, 10, t4, List.of("app.C.chainX:1"))
                .enter(t2, MON, 0x7f00, 15, 20, t1, List.of("app.C.chainY:2"))
                .enter(t3, MON, 0x7f00, 30, 40, t1, List.of("app.C.other:3"));
        BlameResult r = b.build().blame();
        Contention onT1ByT2 = r.contentions().stream().filter(c -> c.waiter().equals(t2)).findFirst().orElseThrow();
        assertThat(onT1ByT2.cause().chain()).isEqualTo(OwnerChain.ACQUISITION_SITE);
        assertThat(onT1ByT2.cause().frames()).containsExactly("app.C.chainX:1");
        Contention onT1ByT3 = r.contentions().stream().filter(c -> c.waiter().equals(t3)).findFirst().orElseThrow();
        assertThat(onT1ByT3.cause().owner()).isEqualTo(t1);
        assertThat(onT1ByT3.cause().chain()).isEqualTo(OwnerChain.NOT_RECORDED);
    }

    private static final List<String> AT_A = List.of("app.S.siteA:10", "app.S.loop:3");
    private static final List<String> AT_B = List.of("app.S.siteB:20", "app.S.loop:4");

    /** T1 gets the monitor in siteA at 2 ms, then holds it asleep 7 ms in siteA, 3 ms in siteB, 7 ms in siteA. */
    private void t1HoldsBackToBack() {
        b.enter(t1, MON, 0x7f00, 0, 2, t3, AT_A)
                .sleep(t1, 2, 9, List.of("java.lang.Thread.sleep:-1", "app.S.hold:30", "app.S.siteA:11", "app.S.loop:3"))
                .sleep(t1, 9, 12, List.of("java.lang.Thread.sleep:-1", "app.S.hold:30", "app.S.siteB:21", "app.S.loop:4"))
                .sleep(t1, 12, 19, List.of("java.lang.Thread.sleep:-1", "app.S.hold:30", "app.S.siteA:11", "app.S.loop:3"));
    }

    /** T2 waited 5..22 ms on T1: 17 ms, of which T1's sleeps cover 11 ms in siteA and 3 ms in siteB: shared 11:3. */
    private static void assertT2sWaitSharedOverT1sHolds(BlameResult r) {
        List<Contention> onT1 = r.contentions().stream().filter(c -> c.waiter().name().equals("T2")).toList();
        assertThat(onT1).allSatisfy(c -> assertThat(c.cause().chain()).isEqualTo(OwnerChain.SAMPLED));
        // what T1 did holding it, inside the frame that holds it: app.S.hold, blocked in the JDK
        assertThat(onT1).allSatisfy(c -> assertThat(c.cause().inside()).hasSize(2).endsWith("app.S.hold:30"));
        assertThat(BlameSums.byOwnerChain(r, "T2")).containsOnlyKeys("app.S.siteA:11 <- app.S.loop:3", "app.S.siteB:21 <- app.S.loop:4");
        assertThat(BlameSums.byOwnerChain(r, "T2").get("app.S.siteA:11 <- app.S.loop:3")).isCloseTo(17 * 11 / 14.0, within(1e-6));
        assertThat(BlameSums.byOwnerChain(r, "T2").get("app.S.siteB:21 <- app.S.loop:4")).isCloseTo(17 * 3 / 14.0, within(1e-6));
        assertThat(onT1.stream().mapToLong(Contention::nanos).sum()).isEqualTo(RecordingBuilder.ns(17));
    }

    /**
     * Back to back: T1 takes the monitor back without contention between its holds while T2 waits; its
     * acquisition site (siteA, earlier) would be stale. T2's wait is shared over what T1 did while it
     * waited, each stack cut to the frame that holds the monitor.
     */
    @Test
    void ownerChainsComeFromTheOwnersOwnWaitsInsideTheSpan() {
        t1HoldsBackToBack();
        b.enter(t2, MON, 0x7f00, 5, 22, t1, AT_B)
                .sleep(t2, 23, 30, List.of("java.lang.Thread.sleep:-1", "app.S.elsewhere:1"));
        assertT2sWaitSharedOverT1sHolds(b.build().blame());
    }

    /**
     * The same with T1 blocked reading a socket while it holds the monitor in siteA (off CPU and not asleep: only
     * its I/O events show what it did), asleep in siteB.
     */
    @Test
    void anOwnerBlockedInIoIsSeenInItsIoEvents() {
        List<String> readAtA = List.of("sun.nio.ch.SocketDispatcher.read0:-1", "app.S.hold:30", "app.S.siteA:11", "app.S.loop:3");
        b.enter(t1, MON, 0x7f00, 0, 2, t3, AT_A)
                .socketRead(t1, 2, 9, readAtA)
                .sleep(t1, 9, 12, List.of("java.lang.Thread.sleep:-1", "app.S.hold:30", "app.S.siteB:21", "app.S.loop:4"))
                .socketRead(t1, 12, 19, readAtA);
        b.enter(t2, MON, 0x7f00, 5, 22, t1, AT_B);
        assertT2sWaitSharedOverT1sHolds(b.build().blame());
    }

    /**
     * The same, but siteB is first seen entering the monitor after T2's wait (a busy start: the first
     * waiters all queued in siteA). T1's holds in siteB still count for T2's wait, in proportion, not
     * given to siteA: the span is weighed once the recording has shown where the monitor is entered.
     */
    @Test
    void aHoldingMethodSeenEnteringOnlyLaterStillGetsItsShare() {
        t1HoldsBackToBack();
        b.enter(t2, MON, 0x7f00, 5, 22, t1, AT_A)
                .enter(t3, MON, 0x7f00, 30, 40, t2, AT_B);
        assertT2sWaitSharedOverT1sHolds(b.build().blame());
    }

    /** Monitors: from a contended acquisition to the hand-off naming the thread previous owner; other tenures unseen. */
    @Test
    void monitorHoldsRunFromOneHandOffToTheNext() {
        b.enter(t2, MON, 0x7f00, 0, 10, t1, List.of("app.M.a:1"))
                .enter(t3, MON, 0x7f00, 5, 18, t2, List.of("app.M.a:1"))   // T2 held 10..18
                .enter(t1, MON, 0x7f00, 12, 30, t2, List.of("app.M.a:1")); // T2 again, after T3: not a hold seen whole
        BlameResult r = b.build().blame();
        assertThat(r.handoffHolds()).singleElement().satisfies(h -> {
            assertThat(h.holds()).isEqualTo(1);
            assertThat(h.nanos()).isEqualTo(RecordingBuilder.ns(8));
        });
    }

    @Test
    void ownerWithoutAcquisitionOrSamplesIsNamedWithUnknownChain() {
        b.enter(t2, MON, 0x7f00, 10, 100, t1, List.of("app.Fig.t2:5"));
        Contention c = b.build().blame().contentions().get(0);
        assertThat(c.cause().owner()).isEqualTo(t1);
        assertThat(c.cause().chain()).isEqualTo(OwnerChain.NOT_RECORDED);
        assertThat(c.cause().frames()).isEmpty();
        assertThat(Aspect.OWNER_METHOD.keyOf(c, ChainView.FILTERED)).isEqualTo("(chain not recorded)");
    }

    /**
     * An Object.wait that another thread's notify ended is contention on a wait/notify lock, blamed on
     * the notifier; a timed-out one stays a conditional wait; the re-entry after the wait is flagged.
     */
    @Test
    void notifiedObjectWaitIsContentionOnTheNotifierAndATimedOutOneIsKeptApart() {
        b.monitorWait(t2, MON, 0x10, 0, 50, t1, List.of("java.lang.Object.wait:-1", "app.W.take:3"))
                .enter(t2, MON, 0x10, 50.2, 70, t1, List.of("java.lang.Object.wait:-1", "app.W.take:3"))
                .monitorWait(t3, MON, 0x10, 0, 40, null, List.of("java.lang.Object.wait:-1", "app.W.poll:3"));
        BlameResult r = b.build().blame();

        assertThat(r.waits()).singleElement().satisfies(w -> {
            assertThat(w.waiter()).isEqualTo(t3);
            assertThat(w.timedOut()).isEqualTo(1);
        });
        assertThat(r.contentions()).filteredOn(c -> c.lock().kind() == LockKind.WAIT).singleElement().satisfies(c -> {
            assertThat(c.lock()).isEqualTo(LockId.waitOn(MON, 0x10));
            assertThat(c.waiter()).isEqualTo(t2);
            assertThat(c.cause().owner()).isEqualTo(t1);
            assertThat(c.nanos()).isEqualTo(RecordingBuilder.ns(50));
        });
        assertThat(r.contentions()).filteredOn(c -> c.lock().kind() == LockKind.MONITOR).singleElement().satisfies(c -> {
            assertThat(c.afterWait()).isTrue();
            assertThat(c.nanos()).isEqualTo(RecordingBuilder.ns(70) - RecordingBuilder.ns(50.2));
        });
    }

    /**
     * A class's initialiser is waited for on its init lock (an int[]) until the initialising thread's notifyAll;
     * the waiters then queue to take the init lock back while the notifier is already elsewhere (Jetty's reserved
     * thread back in its pool). Only its stacks inside the static initialiser are what the waiters waited for.
     */
    @Test
    void aClassInitialisersNotifierIsBlamedInsideItsStaticInitialiserOnly() {
        b.sample(t1, 10, List.of("app.Parser.table:30", "app.Parser.<clinit>:5", "app.Conn.newParser:182", "app.Pool.run:1"))
                .sample(t1, 40, List.of("app.Pool.waitForTask:9", "app.Pool.run:1"))
                .sample(t1, 45, List.of("app.Pool.waitForTask:9", "app.Pool.run:1"))
                .monitorWait(t2, "[I", 0x40, 0, 50, t1, List.of("app.Conn.newParser:182", "app.Conn.fill:7"));
        List<Contention> onT1 = b.build().blame().contentions().stream().filter(c -> c.lock().kind() == LockKind.WAIT).toList();

        assertThat(onT1).singleElement().satisfies(c -> {
            assertThat(c.cause().chain()).isEqualTo(OwnerChain.SAMPLED);
            assertThat(c.cause().frames()).containsExactly("app.Parser.<clinit>:5", "app.Conn.newParser:182", "app.Pool.run:1");
            assertThat(c.cause().inside()).containsExactly("app.Parser.table:30");
            assertThat(c.nanos()).isEqualTo(RecordingBuilder.ns(50));
        });
    }

    /** The same wait when no stack of the notifier was inside an initialiser: seen outside the hold, and labelled so. */
    @Test
    void aClassInitialisersNotifierSeenOnlyOutsideItIsLabelledOutsideTheHold() {
        b.sample(t1, 40, List.of("app.Pool.waitForTask:9", "app.Pool.run:1"))
                .monitorWait(t2, "[I", 0x40, 0, 50, t1, List.of("app.Conn.newParser:182", "app.Conn.fill:7"));
        List<Contention> onT1 = b.build().blame().contentions().stream().filter(c -> c.lock().kind() == LockKind.WAIT).toList();

        assertThat(onT1).singleElement().satisfies(c -> assertThat(c.cause().chain()).isEqualTo(OwnerChain.SAMPLED_OUTSIDE_HOLD));
    }

    /**
     * Row-lock style: T1 itself waited for the same kind of lock (a monitor of the same class) until T3
     * notified it, then held it until it notified T2. T2's wait is T3's until T1 got its grant, then
     * T1's, each on the chain of its own grant wait where nothing else of it was recorded.
     */
    @Test
    void aNotifierThatWasQueuedItselfIsBlamedOnlyFromItsOwnGrant() {
        List<String> grantOfT1 = List.of("java.lang.Object.wait:-1", "app.Rows.waitForGrant:3", "app.Tx.update:9");
        List<String> grantOfT3 = List.of("java.lang.Object.wait:-1", "app.Rows.waitForGrant:3", "app.Tx.insert:5");
        b.monitorWait(t3, MON, 0x30, 0, 5, t1, grantOfT3)
                .monitorWait(t1, MON, 0x20, 6, 30, t3, grantOfT1)
                .monitorWait(t2, MON, 0x10, 10, 50, t1, List.of("java.lang.Object.wait:-1", "app.Rows.waitForGrant:3"));
        List<Contention> onT2 = b.build().blame().contentions().stream().filter(c -> c.waiter().equals(t2)).toList();

        assertThat(onT2).hasSize(2);
        assertThat(onT2).filteredOn(c -> c.cause().owner().equals(t1)).singleElement().satisfies(c -> {
            assertThat(c.nanos()).isEqualTo(RecordingBuilder.ns(20));
            assertThat(c.cause().chain()).isEqualTo(OwnerChain.ACQUISITION_SITE);
            assertThat(c.cause().frames()).isEqualTo(grantOfT1);
        });
        assertThat(onT2).filteredOn(c -> c.cause().owner().equals(t3)).singleElement().satisfies(c -> {
            assertThat(c.nanos()).isEqualTo(RecordingBuilder.ns(20));
            assertThat(c.cause().frames()).isEqualTo(grantOfT3);
        });
    }

    /** No owner: the releaser whose unpark woke the waiter is named, with its stack; a wake-up from an acquire names nobody. */
    @Test
    void semaphoreParkTimeHasNoOwnerAndNamesTheReleaser() {
        List<String> release = List.of("java.util.concurrent.Semaphore.release:1", "app.S.done:1");
        b.park(t2, SEMAPHORE, 3, 10, 60, 1, 2, List.of("app.S.acquire:1"))
                .unpark(t1, 59.9, 2, t2, SEMAPHORE, 3, release)
                .park(t3, SEMAPHORE, 3, 20, 70, 1, 2, List.of("app.S.acquire:1"))
                .unpark(t2, 69.9, 2, t3, SEMAPHORE, 3, List.of(
                        "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire:1", "app.S.acquire:1"));
        BlameResult r = b.build().blame();
        assertThat(r.contentions()).hasSize(2).allSatisfy(c -> {
            assertThat(c.cause().chain()).isEqualTo(OwnerChain.NO_OWNER);
            assertThat(c.nanos()).isEqualTo(RecordingBuilder.ns(50));
            assertThat(c.lock().lockClass()).isEqualTo(SEMAPHORE);
        });
        Contention byRelease = r.contentions().stream().filter(c -> c.waiter().equals(t2)).findFirst().orElseThrow();
        assertThat(byRelease.cause().owner()).isEqualTo(t1);
        assertThat(byRelease.cause().frames()).isEqualTo(release);
        assertThat(Aspect.OWNER_METHOD.keyOf(byRelease, ChainView.FILTERED)).isEqualTo("app.S.done");
        Contention byAcquire = r.contentions().stream().filter(c -> c.waiter().equals(t3)).findFirst().orElseThrow();
        assertThat(byAcquire.cause().hasOwner()).isFalse();
        assertThat(Aspect.OWNER_METHOD.keyOf(byAcquire, ChainView.FILTERED)).isEqualTo("(no owner)");
    }

    /** A latch of a library, released through its own code: the owner method is where the library's user released it. */
    @Test
    void aNoOwnerRowsMethodIsTheCodeThatReleasedPastTheBlockersOwnMachinery() {
        List<String> release = List.of("java.util.concurrent.locks.LockSupport.unpark:1", "org.db.lib.Latch$Sync.setCount:40",
                "org.db.lib.Latch.setCount:20", "org.db.TxManager.resetLatches:300", "org.db.Session.commit:100",
                "org.db.jdbc.Connection.commit:7", "app.Orders.place:12");
        b.park(t2, "org.db.lib.Latch$Sync", 3, 10, 60, 1, 2, List.of("org.db.lib.Latch.await:1", "org.db.Session.execute:5"))
                .unpark(t1, 59.9, 2, t2, "org.db.lib.Latch$Sync", 3, release);
        Contention c = b.build().blame().contentions().get(0);
        assertThat(c.cause().chain()).isEqualTo(OwnerChain.NO_OWNER);
        assertThat(Aspect.OWNER_METHOD.keyOf(c, ChainView.FILTERED)).isEqualTo("org.db.TxManager.resetLatches");
        assertThat(ReleaseSite.of(release).label()).isEqualTo("Connection.commit > … > TxManager.resetLatches");
    }

    @Test
    void genericBlockerWithExclusiveOwnerNamesTheThreadOnly() {
        b.park(t2, "java.util.concurrent.ThreadPoolExecutor$Worker", 3, 10, 20, 1, 0, 1, "T1", List.of("app.X:1"));
        Contention c = b.build().blame().contentions().get(0);
        assertThat(c.cause().owner()).isEqualTo(t1);
        assertThat(c.cause().chain()).isEqualTo(OwnerChain.NOT_RECORDED);
    }
}
