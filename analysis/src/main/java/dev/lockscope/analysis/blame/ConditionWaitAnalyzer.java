package dev.lockscope.analysis.blame;

import dev.lockscope.core.Frame;

import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;

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
    public void parkEnded(ParkBlame.OpenPark open, ParkWait park, long end, BlameCollector out) {
        ThreadRef notifier = open.waker == null ? ThreadRef.UNKNOWN : open.waker.thread();
        out.wait(open.lock, park.thread(), park.frames(), park.beginNanos(), end - park.beginNanos(), notifier,
                open.waker == null ? List.of() : open.wakerTookIn, park.timedOut());
    }

    /** A lock park whose waiter is inside {@code await}: re-acquiring the lock after conditional waiting. */
    static boolean reacquiresAfterAwait(List<String> waiterFrames) {
        return Frame.anyFunctionContains(waiterFrames, "$ConditionObject.await");
    }
}
