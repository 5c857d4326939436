package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ParkWait;

/**
 * Any other blocker ({@code Semaphore}, {@code CountDownLatch}, {@code Phaser}, {@code ForkJoinPool},
 * ...): the park time is contention, but there is no owner to blame, so the cause is unknown. When
 * the blocker is an {@code AbstractOwnableSynchronizer} with an exclusive owner at park time (e.g. a
 * ThreadPoolExecutor worker), that owner thread is named, without a chain.
 */
final class GenericBlockerAnalyzer implements BlockerAnalyzer {
    static final GenericBlockerAnalyzer INSTANCE = new GenericBlockerAnalyzer();

    private GenericBlockerAnalyzer() {
    }

    @Override
    public void parkEnded(ParkBlame.OpenPark open, ParkWait park, long end, BlameCollector out) {
        out.contentionOwnedBy(open.lock, park.thread(), park.frames(), park.beginNanos(), end - park.beginNanos(),
                park.ownerTid(), park.ownerName(), open.afterWait);
    }
}
