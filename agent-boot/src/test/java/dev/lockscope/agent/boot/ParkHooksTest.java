package dev.lockscope.agent.boot;

import dev.lockscope.core.ParkTally;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.concurrent.locks.ReentrantLock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/** The hooks called directly (no instrumentation, no recording): live records and their safety. */
class ParkHooksTest {
    @BeforeAll
    static void activate() {
        BlockerRegistry.configure(0, 1_000);
        // Without --add-opens the owner cannot be read: activation says so and goes on.
        ParkHooks.activate();
        assertThat(ParkHooks.isActive()).isTrue();
    }

    private static BlockerRecord recordOf(Object blocker) {
        return BlockerRegistry.records().stream().filter(r -> r.key.get() == blocker).findFirst().orElse(null);
    }

    @Test
    void parkBeginAndEndMaintainTheLiveTally() {
        ReentrantLock lock = new ReentrantLock();
        Object blocker = lock; // any object works as a blocker
        Object first = ParkHooks.parkBegin(blocker, 0, 0);
        Object second = ParkHooks.parkBegin(blocker, 0, 0);
        ParkTally during = recordOf(blocker).tally();
        assertThat(during.timesParked).isEqualTo(2);
        assertThat(during.parkedNow).isEqualTo(2);
        assertThat(during.peakParked).isEqualTo(2);
        ParkHooks.parkEnd(first);
        ParkHooks.parkEnd(second);
        ParkTally after = recordOf(blocker).tally();
        assertThat(after.parkedNow).isZero();
        assertThat(after.timesParked).isEqualTo(2);
        assertThat(recordOf(blocker).firstThread()).isEqualTo(Thread.currentThread().getName());
        assertThat(recordOf(blocker).firstFrames()[0]).doesNotStartWith("dev.lockscope.agent.boot.");
    }

    @Test
    void anUnparkNumbersItsTargetsHandOffBeforeWakingIt() throws Exception {
        Object blocker = new Object();
        java.util.concurrent.atomic.AtomicBoolean woken = new java.util.concurrent.atomic.AtomicBoolean();
        long[] handoff = new long[2];
        Thread waiter = new Thread(() -> {
            Object token = ParkHooks.parkBegin(blocker, 0, 0);
            handoff[0] = ((ParkHooks.Token) token).handoffAtPark;
            while (!woken.get()) {
                java.util.concurrent.locks.LockSupport.park(blocker); // sets the blocker unparkBegin looks at
            }
            handoff[1] = ParkHooks.THREADS.get(Thread.currentThread()).handoff;
            ParkHooks.parkEnd(token);
        }, "waiter");
        waiter.start();
        while (java.util.concurrent.locks.LockSupport.getBlocker(waiter) != blocker) {
            Thread.onSpinWait();
        }
        woken.set(true);
        Object token = ParkHooks.unparkBegin(waiter);
        java.util.concurrent.locks.LockSupport.unpark(waiter);
        ParkHooks.unparkEnd(token);
        waiter.join();
        assertThat(handoff[1]).as("the woken thread sees the unpark's number").isEqualTo(handoff[0] + 1);
    }

    @Test
    void hooksNeverThrow() {
        assertThatCode(() -> {
            ParkHooks.parkEnd(null);
            ParkHooks.parkEnd("not a token");
            ParkHooks.parkBegin(null, 0, 0);
            ParkHooks.unparkEnd(ParkHooks.unparkBegin(null));
            ParkHooks.unparkEnd(new Object());
            ParkHooks.acquireEnd(ParkHooks.acquireBegin(null, true), 1);
            ParkHooks.acquireEnd("junk", 0);
        }).doesNotThrowAnyException();
    }

    @Test
    void recordsDoNotKeepBlockersAliveAndDeadOnesCanBeFreed() throws Exception {
        Object blocker = new Object();
        ParkHooks.parkEnd(ParkHooks.parkBegin(blocker, 0, 0));
        WeakReference<Object> ref = new WeakReference<>(blocker);
        int hash = System.identityHashCode(blocker);
        blocker = null;
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(ref.get()).as("the record must not keep its blocker reachable").isNull();
        assertThat(BlockerRegistry.records()).anyMatch(r -> r.identityHash == hash && r.isDead());
        assertThat(BlockerRegistry.removeDead()).isPositive();
        assertThat(BlockerRegistry.records()).noneMatch(r -> r.identityHash == hash);
    }

    /** A park from one call site, so every blocker parked on here is of one lock site. */
    private static Object parkHere(Object blocker) {
        return ParkHooks.parkBegin(blocker, 0, 0);
    }

    /** Lets the clock move on, so waiting intervals that overlap do so by a measurable time. */
    private static void letTimePass() {
        long from = System.nanoTime();
        while (System.nanoTime() - from < 1_000_000) {
            Thread.onSpinWait();
        }
    }

    @Test
    void aSitesRealTimeIsTheUnionOfItsObjectsWaitsNotTheirSum() {
        class EntryMutex { } // a class of its own: no other test's blockers share its site
        Object a = new EntryMutex();
        Object b = new EntryMutex();
        Object parkA = parkHere(a);
        letTimePass();
        Object parkB = parkHere(b); // both objects waited for at once from here on
        letTimePass();
        ParkHooks.parkEnd(parkA);
        letTimePass();
        ParkHooks.parkEnd(parkB);

        LockSummaries.Snapshot s = LockSummaries.snapshot();
        BlockerRecord recordA = recordOf(a);
        assertThat(recordA.site()).isSameAs(recordOf(b).site()).isNotNull();
        String key = dev.lockscope.core.LockSites.keyOf(dev.lockscope.core.LockKind.PARK, EntryMutex.class.getName(),
                dev.lockscope.core.LockSites.siteOf(java.util.Arrays.asList(recordA.firstFrames())));
        assertThat(recordA.site().key).isEqualTo(key);
        long realA = recordA.tally().realTimeNanos;
        long realB = recordOf(b).tally().realTimeNanos;
        assertThat(s.siteRealTimes()).containsKey(key);
        assertThat(s.siteRealTimes().get(key)).as("union of [a], [b] (%d, %d ns)", realA, realB)
                .isGreaterThan(realB).isLessThan(realA + realB);
    }
}
