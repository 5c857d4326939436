package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.Unpark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Matches parks with the unparks that ended them: the first unpark of the parked thread with
 * {@code beginSeq < seq <= endSeq} (unpark numbers itself before waking its target; the target
 * reads the counter after waking).
 */
final class ParkWakeups {
    private final Map<Long, List<Unpark>> unparksByTarget = new HashMap<>();

    ParkWakeups(List<Unpark> unparksInSeqOrder) {
        for (Unpark u : unparksInSeqOrder) {
            unparksByTarget.computeIfAbsent(u.targetTid(), k -> new ArrayList<>()).add(u);
        }
    }

    /** The unpark that ended {@code park}, or null (timeout, interrupt, spurious wake-up, still parked). */
    Unpark wakerOf(ParkWait park) {
        if (park.isOpen()) {
            return null;
        }
        List<Unpark> list = unparksByTarget.getOrDefault(park.thread().javaTid(), List.of());
        int i = firstAfter(list, park.beginSeq());
        if (i < list.size() && list.get(i).seq() <= park.endSeq()) {
            return list.get(i);
        }
        return null;
    }

    /** Index of the first unpark with seq greater than {@code seq}. */
    static int firstAfter(List<Unpark> bySeq, long seq) {
        return SortedSearch.firstAfter(bySeq, Unpark::seq, seq);
    }
}
