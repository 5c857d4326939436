package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * Any other blocker ({@code Semaphore}, {@code CountDownLatch}, {@code Phaser}, {@code ForkJoinPool},
 * ...): the park time is contention, but there is no owner to blame: the thread whose release or
 * signal woke the waiter (its unpark) is named instead, as {@link OwnerChain#NO_OWNER}. When
 * the blocker is an {@code AbstractOwnableSynchronizer} with an exclusive owner at park time (e.g. a
 * ThreadPoolExecutor worker), that owner thread is named, without a chain.
 */
final class GenericBlockerAnalyzer implements BlockerAnalyzer {
    static final GenericBlockerAnalyzer INSTANCE = new GenericBlockerAnalyzer();

    private GenericBlockerAnalyzer() {
    }

    @Override
    public void parkEnded(ParkBlame.OpenPark open, ParkWait park, long end, BlameCollector out) {
        if (park.ownerTid() == 0) {
            // no owner: name the thread whose release or signal woke the waiter, where one did (a wake-up
            // from another thread's acquire, e.g. a shared acquire waking the next waiter, releases nothing)
            Cause cause = open.waker == null || !ReleaseBlameAnalyzer.isRelease(open.waker)
                    ? new Cause(ThreadRef.UNKNOWN, List.of(), OwnerChain.NO_OWNER)
                    : new Cause(open.waker.thread(), open.waker.frames(), OwnerChain.NO_OWNER);
            out.contention(open.lock, park.thread(), park.frames(), park.beginNanos(), end - park.beginNanos(), cause,
                    ConditionWaitAnalyzer.reacquiresAfterAwait(park.frames()));
            return;
        }
        out.contentionOwnedBy(open.lock, park.thread(), park.frames(), park.beginNanos(), end - park.beginNanos(),
                park.ownerTid(), park.ownerName(), open.afterWait);
    }
}
