package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.LockMetrics;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.lockscope.analysis.blame.RecordingBuilder.LOCK;
import static dev.lockscope.analysis.blame.RecordingBuilder.RL;
import static dev.lockscope.analysis.blame.RecordingBuilder.UNLOCK;
import static dev.lockscope.analysis.blame.RecordingBuilder.chain;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A convoy: 2,000 threads parked on one {@code ReentrantLock} at once, woken one by one, each by the
 * thread woken before it. Every release is a hand-off for every thread still parked: by waiter thread
 * × owner that is N²/2 spans (2 million here). The test checks the blame of every owner exactly;
 * that the blame summed per group of waiters beyond {@link ParkBlame#EXACT_WAITERS} parked at once is
 * the span-by-span blame in every aspect but the waiter thread; and, as {@code ThreadScalingTest}
 * does for the report, that ten times the threads cost less than twenty times the work (bytes
 * allocated by this thread: work, not time, so the same on a loaded machine), a measure that sees the
 * quadratic form.
 */
class ConvoyBlameTest {
    private static final int WAITERS = 2_000;
    /** Ten times the threads must cost less than this many times the work (linear: about 10). */
    private static final double MAX_GROWTH = 20;
    private static final double FIRST_RELEASE_MS = 10;
    private static final double HOLD_MS = 0.1;
    private static final double WAKE_UP_MS = 0.02;

    @Test
    void everyReleaseIsBlamedForEveryThreadStillParked() {
        LockRecording recording = convoy(WAITERS, 1, List.of(PARKED_IN));
        long expectedTotal = 0;
        long expectedWakeUps = 0;
        for (int k = 0; k < WAITERS; k++) {
            expectedTotal += RecordingBuilder.ns(release(k) + WAKE_UP_MS) - RecordingBuilder.ns(parkedAt(k));
            expectedWakeUps += RecordingBuilder.ns(release(k) + WAKE_UP_MS) - RecordingBuilder.ns(release(k));
        }

        BlameResult blame = recording.blame();

        Map<String, Long> nanosByOwner = new HashMap<>();
        Map<String, Long> spansByOwner = new HashMap<>();
        for (Contention c : blame.contentions()) {
            nanosByOwner.merge(c.cause().owner().name(), c.nanos(), Long::sum);
            spansByOwner.merge(c.cause().owner().name(), c.count(), Long::sum);
        }
        long beforeFirstRelease = 0;
        for (int k = 0; k < WAITERS; k++) {
            beforeFirstRelease += RecordingBuilder.ns(FIRST_RELEASE_MS) - RecordingBuilder.ns(parkedAt(k));
        }
        // the first owner held the lock while every waiter queued up; each waiter j-1 then held it for
        // one hold time while the WAITERS - j threads behind it were still parked
        assertThat(nanosByOwner.remove("owner")).isEqualTo(beforeFirstRelease);
        assertThat(spansByOwner.remove("owner")).isEqualTo(WAITERS);
        for (int j = 1; j < WAITERS; j++) {
            String name = "waiter-" + (j - 1);
            long hold = RecordingBuilder.ns(release(j)) - RecordingBuilder.ns(release(j - 1));
            assertThat(nanosByOwner.remove(name)).as(name).isEqualTo((WAITERS - j) * hold);
            assertThat(spansByOwner.remove(name)).as(name).isEqualTo(WAITERS - j);
        }
        // each waiter's own wake-up after the release that woke it: nobody to blame
        assertThat(nanosByOwner.remove("?")).isEqualTo(expectedWakeUps);
        assertThat(nanosByOwner).isEmpty();
        assertThat(blame.totalNanos()).isEqualTo(expectedTotal);

        LockMetrics lock = recording.contention(new ContentionOptions(0, 0)).locks().get(0);
        assertThat(lock.timesParked()).isEqualTo(WAITERS);
        assertThat(lock.peakParked()).isEqualTo(WAITERS);
        assertThat(lock.threadTimeNanos()).isEqualTo(expectedTotal);
    }

    @Test
    void blameSummedPerGroupIsTheSpanBySpanBlameInEveryAspectButTheWaiterThread() {
        // three pools, two waiter chains, one of them re-acquiring after Condition.await: six groups
        List<List<String>> chains = List.of(PARKED_IN, RecordingBuilder.chain(RecordingBuilder.LOCK,
                "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await:1625", "app.Convoy.take:20"));
        int exactWaiters = 32; // a lower limit than the default: the same code, less to compare
        LockRecording recording = convoy(240, 3, chains);

        BlameResult grouped = blame(recording, exactWaiters);
        BlameResult exact = blame(recording, Integer.MAX_VALUE);

        assertThat(grouped.totalNanos()).isEqualTo(exact.totalNanos());
        assertThat(grouped.contentionCount()).isEqualTo(exact.contentionCount());
        List<Aspect> allButWaiterThread = Arrays.stream(Aspect.values()).filter(a -> a != Aspect.WAITER_THREAD).toList();
        ChainView view = ChainView.of(false);
        assertThat(BlameTree.build(grouped.contentions(), allButWaiterThread, view))
                .isEqualTo(BlameTree.build(exact.contentions(), allButWaiterThread, view));
        assertThat(grouped.contentions().size()).isLessThan(exact.contentions().size() / 4);

        // by waiter thread: the holds waited through while the convoy was long are their group's; every
        // thread keeps its own first span and its wake-up
        List<String> byWaiter = BlameTree.build(grouped.contentions(), List.of(Aspect.WAITER_THREAD), view).children()
                .stream().map(BlameNode::key).toList();
        assertThat(byWaiter).contains("(convoy of pool-0-thread-*)", "(convoy of pool-2-thread-*)", "pool-0-thread-0 #100");
        assertThat(byWaiter).hasSize(240 + 3); // every waiter and the three groups
        assertThat(byWaiter.stream().filter(k -> k.startsWith("(convoy")).count()).isEqualTo(3);
    }

    @Test
    void tenTimesTheThreadsInAConvoyCostLessThanTwentyTimesTheWork() {
        long small = work(convoy(WAITERS, 4, List.of(PARKED_IN)), ParkBlame.EXACT_WAITERS);
        long large = work(convoy(10 * WAITERS, 4, List.of(PARKED_IN)), ParkBlame.EXACT_WAITERS);
        double growth = (double) large / small;
        System.out.printf("convoy: %,d -> %,d threads, %,d -> %,d bytes allocated (x%.1f)%n", WAITERS, 10 * WAITERS,
                small, large, growth);
        assertThat(growth).isLessThan(MAX_GROWTH);
    }

    @Test
    void theWorkMeasureCatchesTheQuadraticForm() {
        // every span apart, as before blame was summed per group: a span per waiter and owner pair
        long small = work(convoy(60, 4, List.of(PARKED_IN)), Integer.MAX_VALUE);
        long large = work(convoy(600, 4, List.of(PARKED_IN)), Integer.MAX_VALUE);
        System.out.printf("convoy, span by span: 60 -> 600 threads, %,d -> %,d bytes allocated (x%.1f)%n", small, large,
                (double) large / small);
        assertThat((double) large / small).isGreaterThan(MAX_GROWTH);
    }

    private static final List<String> PARKED_IN = RecordingBuilder.chain(RecordingBuilder.LOCK, "app.Convoy.work:10");
    private static boolean warmedUp;

    /**
     * {@code waiters} threads (in {@code pools} pools, taking the chains in turn) parked on one lock,
     * waiter k at k+1 µs, released one by one: the first by "owner" at {@link #FIRST_RELEASE_MS},
     * each next one by the waiter woken before it one hold later.
     */
    private static LockRecording convoy(int waiters, int pools, List<List<String>> chains) {
        RecordingBuilder b = new RecordingBuilder();
        ThreadRef owner = b.thread(1, "owner");
        List<String> releasedIn = RecordingBuilder.chain(RecordingBuilder.UNLOCK, "app.Convoy.work:12");
        ThreadRef previous = owner;
        for (int k = 0; k < waiters; k++) {
            ThreadRef waiter = b.thread(100 + k, pools == 1 ? "waiter-" + k : "pool-" + (k % pools) + "-thread-" + k);
            b.park(waiter, RL, 7, parkedAt(k), release(k) + WAKE_UP_MS, 0, 1, chains.get(k % chains.size()));
            b.unpark(previous, release(k), 1, waiter, RL, 7, releasedIn);
            previous = waiter;
        }
        return b.endAt(release(waiters) + 1).build();
    }

    private static BlameResult blame(LockRecording recording, int exactWaiters) {
        BlameAnalysis blame = new BlameAnalysis(new BlameCollector(), exactWaiters);
        recording.replay(blame);
        return blame.result();
    }

    /** Bytes this thread allocates for the blame and its summary (tree, rows, chain shares). */
    private static long work(LockRecording recording, int exactWaiters) {
        if (!warmedUp) { // one-time costs (class loading) are not work per thread
            warmedUp = true;
            work(convoy(100, 1, List.of(PARKED_IN)), exactWaiters);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        BlameSummary summary = BlameSummary.of(blame(recording, exactWaiters), Aspect.DEFAULT, false);
        long bytes = threads.getThreadAllocatedBytes(id) - before;
        assertThat(summary.rows()).isNotEmpty();
        return bytes;
    }

    private static double parkedAt(int k) {
        return 0.001 * (k + 1); // waiter k parks k+1 µs into the recording
    }

    private static double release(int j) {
        return FIRST_RELEASE_MS + j * HOLD_MS;
    }
}
