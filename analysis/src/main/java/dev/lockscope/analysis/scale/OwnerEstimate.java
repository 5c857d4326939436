package dev.lockscope.analysis.scale;

import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.Unpark;
import dev.lockscope.core.IntervalReplay;
import dev.lockscope.core.LockKind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The sweep's own per-lock waits and owner estimate, straight from a {@link LockRecording}:
 * <ul>
 *   <li>wait thread-time: parks (or blocked monitor entries) replayed through the seed 000 tally
 *       ({@link IntervalReplay}), whose thread-time §3.7.8 is the sum of the wait durations;</li>
 *   <li>owner of a park blocker: the stacks of the {@code Unpark} events on the same blocker (class
 *       and identity hash): the releasing code, which held the lock until then;</li>
 *   <li>owner of a monitor: JFR's {@code previousOwner} of each entry, located at its own most recent
 *       contended entry of the same monitor; an owner that always got the monitor uncontended left no
 *       stack, so then the waiters' site stands in (the code that waits is the code that holds it
 *       whenever all threads run the same path).</li>
 * </ul>
 * A stand-in for the owner-blame analysis; see {@link LockWaitSource}.
 */
public final class OwnerEstimate implements LockWaitSource {
    /** Frames kept of each call chain: enough to name the method and its caller. */
    static final int FRAMES_KEPT = 6;

    @Override
    public List<ContendedLock> contendedLocks(LockRecording rec) {
        List<ContendedLock> out = new ArrayList<>();
        parkLocks(rec, out);
        monitorLocks(rec, out);
        out.sort(Comparator.comparingLong(ContendedLock::threadTimeNanos).reversed().thenComparing(ContendedLock::key));
        return out;
    }

    private record Blocker(String className, long identity) {
    }

    private static void parkLocks(LockRecording rec, List<ContendedLock> out) {
        Map<Blocker, List<ParkWait>> byBlocker = new LinkedHashMap<>();
        for (ParkWait p : rec.parks()) {
            byBlocker.computeIfAbsent(new Blocker(p.blockerClass(), p.blockerHash()), k -> new ArrayList<>()).add(p);
        }
        Map<Blocker, StackVotes> owners = new HashMap<>();
        for (Unpark u : rec.unparks()) {
            owners.computeIfAbsent(new Blocker(u.blockerClass(), u.blockerHash()), k -> new StackVotes())
                    .add(LayerClassifier.withoutLockImplementation(u.frames()), 1);
        }
        byBlocker.forEach((blocker, parks) -> {
            IntervalReplay replay = new IntervalReplay();
            StackVotes waiters = new StackVotes();
            TreeSet<String> threads = new TreeSet<>();
            for (ParkWait p : parks) {
                threads.add(p.thread().name());
                replay.add(p.beginNanos(), p.endNanos());
                waiters.add(LayerClassifier.withoutLockImplementation(p.frames()), p.durationNanos(rec.endNanos()));
            }
            StackVotes owner = owners.get(blocker);
            out.add(lock(LockKind.PARK, blocker.className(), waiters, owner, "unpark", parks.size(),
                    replay.tally(0).threadTimeNanos, threads));
        });
    }

    private static void monitorLocks(LockRecording rec, List<ContendedLock> out) {
        Map<Blocker, List<MonitorEnter>> byMonitor = new LinkedHashMap<>();
        for (MonitorEnter m : rec.monitorEnters()) {
            byMonitor.computeIfAbsent(new Blocker(m.monitorClass(), m.address()), k -> new ArrayList<>()).add(m);
        }
        byMonitor.forEach((monitor, enters) -> {
            IntervalReplay replay = new IntervalReplay();
            StackVotes waiters = new StackVotes();
            TreeSet<String> threads = new TreeSet<>();
            for (MonitorEnter m : enters) {
                threads.add(m.thread().name());
                replay.add(m.beginNanos(), m.endNanos());
                waiters.add(m.frames(), m.endNanos() - m.beginNanos());
            }
            out.add(lock(LockKind.MONITOR, monitor.className(), waiters, previousOwners(enters), "previousOwner",
                    enters.size(), replay.tally(0).threadTimeNanos, threads));
        });
    }

    /**
     * For each entry with a previous owner: that owner's latest contended entry of this monitor that
     * ended (it got the monitor) no later than this one did. Entries are visited in order of their
     * end, keeping each thread's latest entry so far.
     */
    private static StackVotes previousOwners(List<MonitorEnter> enters) {
        List<MonitorEnter> byEnd = new ArrayList<>(enters);
        byEnd.sort(Comparator.comparingLong(MonitorEnter::endNanos));
        Map<Long, MonitorEnter> latestByThread = new HashMap<>();
        StackVotes owners = new StackVotes();
        for (MonitorEnter m : byEnd) {
            if (m.previousOwner() != null) {
                MonitorEnter ownersEntry = latestByThread.get(m.previousOwner().javaTid());
                if (ownersEntry != null) {
                    owners.add(ownersEntry.frames(), 1);
                }
            }
            latestByThread.put(m.thread().javaTid(), m);
        }
        return owners;
    }

    private static ContendedLock lock(LockKind kind, String className, StackVotes waiters, StackVotes owners,
                                      String ownerSource, long waits, long threadTime, TreeSet<String> threads) {
        List<String> waiterStack = waiters.winner();
        String site = waiterStack.isEmpty() ? "?" : waiterStack.get(0);
        boolean haveOwner = owners != null && !owners.isEmpty();
        List<String> ownerStack = haveOwner ? owners.winner() : waiterStack;
        return new ContendedLock(kind, className, site, top(waiterStack), top(ownerStack),
                haveOwner ? ownerSource : "waiter-site", waits, threadTime,
                threads.stream().limit(ContendedLock.THREADS_KEPT).toList());
    }

    private static List<String> top(List<String> frames) {
        return frames.subList(0, Math.min(FRAMES_KEPT, frames.size()));
    }

    /** Call chains (cut to {@link #FRAMES_KEPT}) with a weight each; the heaviest wins, ties by text. */
    private static final class StackVotes {
        private final Map<List<String>, Long> weights = new HashMap<>();

        void add(List<String> frames, long weight) {
            weights.merge(List.copyOf(top(frames)), Math.max(weight, 1), Long::sum);
        }

        boolean isEmpty() {
            return weights.isEmpty();
        }

        List<String> winner() {
            return weights.entrySet().stream()
                    .max(Map.Entry.<List<String>, Long>comparingByValue()
                            .thenComparing(e -> e.getKey().toString(), Comparator.reverseOrder()))
                    .map(Map.Entry::getKey).orElse(List.of());
        }
    }
}
