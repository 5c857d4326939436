package dev.lockscope.agent.boot;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link StackBudget}: how many events a second it grants, to one thread and to many, with the clock given. */
class StackBudgetTest {
    private static final long SECOND = 1_000_000_000L;

    @AfterEach
    void noBudget() {
        StackBudget.setPerSecond(0);
    }

    /** Grants until the first refusal, all at {@code now}. */
    private static long grantsUntilRefused(PerThread pt, long now) {
        long n = 0;
        while (StackBudget.take(pt, now)) {
            n++;
            if (n > 100_000_000L) {
                throw new AssertionError("never refused");
            }
        }
        return n;
    }

    @Test
    void withoutABudgetEveryEventIsGranted() {
        StackBudget.setPerSecond(0);
        PerThread pt = new PerThread(Thread.currentThread());
        for (int i = 0; i < 100_000; i++) {
            assertThat(StackBudget.take(pt, System.nanoTime())).isTrue();
        }
        assertThat(StackBudget.take(pt)).isTrue();
    }

    @Test
    void oneThreadGetsTheBudgetOfEachSecondAndNoMore() {
        StackBudget.setPerSecond(100);
        long t0 = System.nanoTime();
        PerThread pt = new PerThread(Thread.currentThread());
        assertThat(grantsUntilRefused(pt, t0)).isEqualTo(100);
        assertThat(StackBudget.take(pt, t0 + SECOND / 2)).as("later in the same second").isFalse();
        assertThat(grantsUntilRefused(pt, t0 + SECOND)).as("the next second").isEqualTo(100);
        assertThat(grantsUntilRefused(pt, t0 + 5 * SECOND)).as("seconds later").isEqualTo(100);
    }

    /** Grants go out in batches (here of 16): threads that each spend theirs share the second's budget exactly. */
    @Test
    void threadsTakingInTurnShareOneBudgetExactly() {
        StackBudget.setPerSecond(10_000);
        long t0 = System.nanoTime();
        List<PerThread> threads = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            threads.add(new PerThread(Thread.currentThread()));
        }
        long granted = 0;
        boolean any = true;
        while (any) {
            any = false;
            for (PerThread pt : threads) {
                if (StackBudget.take(pt, t0)) {
                    granted++;
                    any = true;
                }
            }
        }
        assertThat(granted).isEqualTo(10_000);
    }

    /** Real threads racing for one second's grants (the clock held still): never more than the budget in all. */
    @Test
    void racingThreadsNeverGetMoreThanTheBudget() throws Exception {
        StackBudget.setPerSecond(50_000);
        long t0 = System.nanoTime();
        AtomicLong granted = new AtomicLong();
        int n = 8;
        CyclicBarrier start = new CyclicBarrier(n);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(() -> {
                PerThread pt = new PerThread(Thread.currentThread());
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                granted.addAndGet(grantsUntilRefused(pt, t0));
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(granted.get()).isEqualTo(50_000);
    }

    /** A thread whose clock read came before another thread moved the budget to the next second counts in that one. */
    @Test
    void aLateClockReadCountsInTheNewerSecond() {
        StackBudget.setPerSecond(10);
        long t0 = System.nanoTime();
        PerThread early = new PerThread(Thread.currentThread());
        PerThread late = new PerThread(Thread.currentThread());
        assertThat(grantsUntilRefused(late, t0 + SECOND)).isEqualTo(10);
        assertThat(StackBudget.take(early, t0)).as("the older second, after the newer one began").isFalse();
    }

    @Test
    void refusedEventsAreCountedByTheirThreadAndKeptWhenItEnds() throws Exception {
        long[] before = PerThread.droppedByBudget();
        Thread t = new Thread(() -> {
            PerThread pt = PerThread.current();
            pt.parkDropped(1_000);
            pt.parkDropped(500);
            pt.unparkDropped();
        });
        t.start();
        t.join();
        long[] alive = PerThread.droppedByBudget();
        PerThread.sweepDeadThreads();
        long[] after = PerThread.droppedByBudget();
        for (long[] now : List.of(alive, after)) {
            assertThat(now[0] - before[0]).isEqualTo(2);
            assertThat(now[1] - before[1]).isEqualTo(1_500);
            assertThat(now[2] - before[2]).isEqualTo(1);
        }
        assertThat(PerThread.THREADS).doesNotContainKey(t);
    }

    /**
     * A sum taken while another thread sweeps ended threads counts each of them once: the what-if delay's count at exit
     * read 0 when it raced the recording's final snapshot (a thread's state removed, its counts not yet kept).
     */
    @Test
    void aSumDuringASweepMissesNoEndedThread() throws Exception {
        int ended = 300;
        long[] before = PerThread.releasesDelayed();
        for (int i = 0; i < ended; i++) {
            Thread t = new Thread(() -> PerThread.current().releaseDelayed(10));
            t.start();
            t.join();
        }
        AtomicLong lowest = new AtomicLong(Long.MAX_VALUE);
        Thread summer = new Thread(() -> {
            for (int i = 0; i < 2_000; i++) {
                lowest.accumulateAndGet(PerThread.releasesDelayed()[0] - before[0], Math::min);
            }
        });
        summer.start();
        PerThread.sweepDeadThreads();
        summer.join();
        assertThat(lowest.get()).isEqualTo(ended);
        assertThat(PerThread.releasesDelayed()[1] - before[1]).isEqualTo(10L * ended);
    }
}
