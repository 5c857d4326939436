package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;

import java.util.List;
import java.util.Map;

/**
 * Everything recorded about one blocker object: the parks on it (in begin order) and the unparks of
 * threads parked on it (in sequence order).
 */
record BlockerTrace(LockId lock, List<ParkWait> parks, List<Unpark> unparks, ParkWakeups wakeups,
                    Map<Long, ThreadRef> threads, long recordingEnd) {
    long endOf(ParkWait p) {
        return p.isOpen() ? Math.max(recordingEnd, p.beginNanos()) : p.endNanos();
    }

    /** The thread with this id as the recording names it, or a reference made from the given name. */
    ThreadRef thread(long tid, String name) {
        if (tid == 0) {
            return ThreadRef.UNKNOWN;
        }
        ThreadRef known = threads.get(tid);
        return known != null ? known : new ThreadRef(tid, 0, name == null ? "?" : name);
    }
}
