package dev.lockscope.analysis.deep;

import dev.lockscope.analysis.model.DeepCounts;
import dev.lockscope.analysis.model.DeepInfo;
import dev.lockscope.analysis.model.DeepLock;
import dev.lockscope.analysis.model.DeepSite;

import java.util.List;

/**
 * Deep mode's statistics of a recording: JLM's table per lock object and per acquiring site, their
 * totals, and the lock-behaviour figures of Kawachiya's dissertation.
 *
 * @param info           the agent's selection and measured probe cost (null if the recording lacks it)
 * @param durationNanos  the recording's length, over which %UTIL is taken
 * @param locks          every lock object, most slow acquisitions first (then most hold time, most gets)
 * @param sites          every instrumented site that was used, in the same order
 * @param libraryLocks   the library lock that fits each lock measured enough to judge: those that pay first, then most acquisitions first
 */
public record DeepResult(DeepInfo info, long durationNanos, List<DeepLock> locks, List<DeepSite> sites,
                         LockBehaviour behaviour, List<LibraryLockAdvice> libraryLocks) {
    public DeepResult {
        locks = List.copyOf(locks);
        sites = List.copyOf(sites);
        libraryLocks = List.copyOf(libraryLocks);
    }

    /** Every lock object's counts summed. */
    public DeepCounts totals() {
        return DeepAnalysis.sum(locks.stream().map(DeepLock::counts).toList());
    }
}
