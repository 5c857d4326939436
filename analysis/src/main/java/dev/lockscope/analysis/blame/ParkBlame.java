package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.Unpark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Dispatches the parks and unparks of a recording to one analyzer per blocker object. */
final class ParkBlame {
    private ParkBlame() {
    }

    static void analyze(LockRecording rec, BlameCollector out) {
        ParkWakeups wakeups = new ParkWakeups(rec.unparks());
        Map<LockId, List<ParkWait>> parksByLock = new TreeMap<>();
        for (ParkWait p : rec.parks()) {
            parksByLock.computeIfAbsent(LockId.blocker(p.blockerClass(), p.blockerHash()), k -> new ArrayList<>()).add(p);
        }
        Map<LockId, List<Unpark>> unparksByLock = new HashMap<>();
        for (Unpark u : rec.unparks()) {
            unparksByLock.computeIfAbsent(LockId.blocker(u.blockerClass(), u.blockerHash()), k -> new ArrayList<>()).add(u);
        }
        parksByLock.forEach((lock, parks) -> {
            BlockerTrace trace = new BlockerTrace(lock, parks, unparksByLock.getOrDefault(lock, List.of()), wakeups,
                    rec.threads(), rec.endNanos());
            BlockerAnalyzer.forClass(lock.lockClass()).analyze(trace, out);
        });
    }
}
