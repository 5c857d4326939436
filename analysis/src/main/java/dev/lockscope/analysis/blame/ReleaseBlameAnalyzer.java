package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.Unpark;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code ReentrantLock} and {@code ReentrantReadWriteLock} (seed 001 §4.2.3, Fig. 4.6). An unpark of
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
    public void analyze(BlockerTrace trace, BlameCollector out) {
        List<Unpark> releases = new ArrayList<>();
        List<Handoff> handoffs = new ArrayList<>();
        for (Unpark u : trace.unparks()) {
            if (isRelease(u)) {
                releases.add(u);
                handoffs.add(new Handoff(u.timeNanos(), new Cause(u.thread(), u.frames(), OwnerChain.EXACT)));
            }
        }
        for (ParkWait p : trace.parks()) {
            int first = ParkWakeups.firstAfter(releases, p.beginSeq());
            int last = p.isOpen() ? releases.size() : ParkWakeups.firstAfter(releases, p.endSeq());
            boolean afterWait = ConditionWaitAnalyzer.reacquiresAfterAwait(p.frames());
            for (WaitSplitter.Span s : WaitSplitter.split(p.beginNanos(), trace.endOf(p), handoffs.subList(first, last),
                    Cause.UNKNOWN)) {
                out.add(new Contention(trace.lock(), p.thread(), p.frames(), s.beginNanos(), s.durationNanos(),
                        s.cause(), afterWait));
            }
        }
    }

    /** Unparks issued inside AQS.acquire wake queued threads without releasing anything. */
    static boolean isRelease(Unpark u) {
        return !FrameText.anyMethodStartsWith(u.frames(), AQS_ACQUIRE);
    }
}
