package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.core.JucLocks;
import dev.lockscope.analysis.model.Unpark;

/** Blame for the parks on one kind of blocker (Hofer §4.3: one analyzer per blocker class). */
interface BlockerAnalyzer {
    /** Whether this unpark hands the lock over, splitting every park open on the blocker at it. */
    default boolean handsOver(Unpark u) {
        return false;
    }

    /**
     * A park on the blocker ended at {@code end} (for a park still open when the recording stopped,
     * the recording's end).
     *
     * @param park the park as recorded: ended, or still open
     */
    void parkEnded(ParkBlame.OpenPark open, ParkWait park, long end, BlameCollector out);

    /** The analyzer for a blocker class. */
    static BlockerAnalyzer forClass(String blockerClass) {
        if (JucLocks.isReleasedByUnlock(blockerClass)) {
            return ReleaseBlameAnalyzer.INSTANCE;
        }
        if (blockerClass.endsWith("$ConditionObject")) {
            return ConditionWaitAnalyzer.INSTANCE;
        }
        return GenericBlockerAnalyzer.INSTANCE;
    }
}
