package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;

import java.util.List;

/**
 * Parks on an AQS {@code ConditionObject} are {@code Condition.await}: conditional waiting, reported
 * as {@link WaitRecord}s, not contention. The notifier is the thread whose unpark woke the waiter.
 * After {@code signal}, AQS moves the waiter to the lock's queue but leaves it parked on the condition
 * until the lock is released to it, so this wait also contains the time queued for the lock.
 */
final class ConditionWaitAnalyzer implements BlockerAnalyzer {
    static final ConditionWaitAnalyzer INSTANCE = new ConditionWaitAnalyzer();

    private ConditionWaitAnalyzer() {
    }

    @Override
    public void analyze(BlockerTrace trace, BlameCollector out) {
        for (ParkWait p : trace.parks()) {
            Unpark waker = trace.wakeups().wakerOf(p);
            ThreadRef notifier = waker == null ? ThreadRef.UNKNOWN : waker.thread();
            long end = trace.endOf(p);
            out.add(new WaitRecord(trace.lock(), p.thread(), p.frames(), p.beginNanos(), end - p.beginNanos(),
                    notifier, p.timedOut()));
        }
    }

    /** A lock park whose waiter is inside {@code await}: re-acquiring the lock after conditional waiting. */
    static boolean reacquiresAfterAwait(List<String> waiterFrames) {
        return FrameText.anyMethodContains(waiterFrames, "$ConditionObject.await");
    }
}
