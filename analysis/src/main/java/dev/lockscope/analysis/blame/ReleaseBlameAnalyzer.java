package dev.lockscope.analysis.blame;

import dev.lockscope.core.Frame;

import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.Unpark;

/**
 * {@code ReentrantLock} and {@code ReentrantReadWriteLock} (Hofer §4.2.3, Fig. 4.6). An unpark of
 * a thread parked on the lock's synchronizer, issued from a release, means the unparking thread held
 * the lock until then; its stack, recorded at the unpark, is the owner chain (exact). Every thread
 * parked on the same synchronizer across that release is blamed on that owner, whether or not it was
 * the one unparked, so barging owners are blamed too.
 *
 * <p>Read-write lock: a writer's release is exact for waiting readers and writers; readers release
 * without waking anyone until the last one leaves, so a waiting writer names only the last reader.
 * Unparks from the acquire path (a reader that got the lock waking the next queued reader, cleaning
 * up cancelled nodes) are not releases and are skipped.
 */
final class ReleaseBlameAnalyzer implements BlockerAnalyzer {
    static final ReleaseBlameAnalyzer INSTANCE = new ReleaseBlameAnalyzer();

    private static final String AQS_ACQUIRE = "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire";

    private ReleaseBlameAnalyzer() {
    }

    @Override
    public boolean handsOver(Unpark u) {
        return isRelease(u);
    }

    @Override
    public void parkEnded(ParkBlame.OpenPark open, ParkWait park, long end, BlameCollector out) {
        // the hand-offs split the wait up to the last release (ParkBlame); after it: woken by it, the waiter
        // was runnable (a hand-off gap); not woken, nobody is known
        Cause tail = open.waker == null ? Cause.UNKNOWN : Cause.HANDOFF_GAP;
        out.contention(open.lock, park.thread(), park.frames(), open.cursor, end - open.cursor, tail, open.afterWait);
    }

    /** Unparks issued inside AQS.acquire wake queued threads without releasing anything. */
    static boolean isRelease(Unpark u) {
        return !Frame.anyFunctionStartsWith(u.frames(), AQS_ACQUIRE);
    }
}
