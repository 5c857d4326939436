package dev.lockscope.analysis.scale;

import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.Unpark;
import dev.lockscope.core.LockKind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The sweep's own per-lock waits and owner estimate, in one pass over a recording:
 * <ul>
 *   <li>wait thread-time: the seed 000 tally's thread-time §3.7.8 with no collection threshold, which
 *       is the sum of the wait durations (a wait still open counts up to the lock's last event);</li>
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
    public Analysis start() {
        return new Estimate();
    }

    private record Blocker(String className, long identity) {
    }

    /** The waits on one lock, summed. */
    private static final class Waits {
        final StackVotes waiters = new StackVotes();
        final StackVotes owners = new StackVotes();
        final TreeSet<String> threads = new TreeSet<>();
        /** Open parks: their begins, so their time can be counted up to the lock's last event. */
        final List<ParkWait> open = new ArrayList<>();
        /** Monitors: each thread's latest contended entry, in end order. */
        final Map<Long, MonitorEnter> latestByThread = new HashMap<>();
        long count;
        long closedNanos;
        long lastTime = Long.MIN_VALUE;

        void wait(String thread, long begin, long end) {
            count++;
            threads.add(thread);
            lastTime = Math.max(lastTime, Math.max(begin, end));
            closedNanos += end - begin;
        }

        long threadTimeNanos() {
            long t = closedNanos;
            for (ParkWait p : open) {
                t += lastTime - p.beginNanos();
            }
            return t;
        }
    }

    private static final class Estimate implements Analysis {
        private final Map<Blocker, Waits> parks = new LinkedHashMap<>();
        private final Map<Blocker, Waits> monitors = new LinkedHashMap<>();
        private List<ContendedLock> result;

        @Override
        public void parkBegin(ParkWait p) {
            Waits w = parks.computeIfAbsent(new Blocker(p.blockerClass(), p.blockerHash()), k -> new Waits());
            w.count++;
            w.threads.add(p.thread().name());
            w.lastTime = Math.max(w.lastTime, p.beginNanos());
            w.open.add(p);
        }

        @Override
        public void parkEnd(ParkWait p) {
            Waits w = parks.get(new Blocker(p.blockerClass(), p.blockerHash()));
            w.open.removeIf(o -> o.beginSeq() == p.beginSeq() && o.thread().javaTid() == p.thread().javaTid());
            w.count--; // counted again, now with its end
            w.wait(p.thread().name(), p.beginNanos(), p.endNanos());
            w.waiters.add(LayerClassifier.withoutLockImplementation(p.frames()), p.endNanos() - p.beginNanos());
        }

        @Override
        public void unpark(Unpark u) {
            parks.computeIfAbsent(new Blocker(u.blockerClass(), u.blockerHash()), k -> new Waits())
                    .owners.add(LayerClassifier.withoutLockImplementation(u.frames()), 1);
        }

        /**
         * For each entry with a previous owner: that owner's latest contended entry of this monitor that
         * ended (it got the monitor) no later than this one did. Entries come in order of their end.
         */
        @Override
        public void monitorEnter(MonitorEnter m) {
            Waits w = monitors.computeIfAbsent(new Blocker(m.monitorClass(), m.address()), k -> new Waits());
            w.wait(m.thread().name(), m.beginNanos(), m.endNanos());
            w.waiters.add(m.frames(), m.endNanos() - m.beginNanos());
            if (m.previousOwner() != null) {
                MonitorEnter ownersEntry = w.latestByThread.get(m.previousOwner().javaTid());
                if (ownersEntry != null) {
                    w.owners.add(ownersEntry.frames(), 1);
                }
            }
            w.latestByThread.put(m.thread().javaTid(), m);
        }

        @Override
        public void finish(RecordingInfo info) {
            List<ContendedLock> out = new ArrayList<>();
            parks.forEach((blocker, w) -> {
                if (w.count > 0) {
                    for (ParkWait p : w.open) {
                        w.waiters.add(LayerClassifier.withoutLockImplementation(p.frames()), p.durationNanos(info.endNanos()));
                    }
                    out.add(lock(LockKind.PARK, blocker.className(), w, "unpark"));
                }
            });
            monitors.forEach((monitor, w) -> out.add(lock(LockKind.MONITOR, monitor.className(), w, "previousOwner")));
            out.sort(Comparator.comparingLong(ContendedLock::threadTimeNanos).reversed().thenComparing(ContendedLock::key));
            result = out;
        }

        @Override
        public List<ContendedLock> contendedLocks() {
            if (result == null) {
                throw new IllegalStateException("the recording has not been read to its end");
            }
            return result;
        }
    }

    private static ContendedLock lock(LockKind kind, String className, Waits w, String ownerSource) {
        List<String> waiterStack = w.waiters.winner();
        String site = waiterStack.isEmpty() ? "?" : waiterStack.get(0);
        boolean haveOwner = !w.owners.isEmpty();
        List<String> ownerStack = haveOwner ? w.owners.winner() : waiterStack;
        return new ContendedLock(kind, className, site, top(waiterStack), top(ownerStack),
                haveOwner ? ownerSource : "waiter-site", w.count, w.threadTimeNanos(),
                w.threads.stream().limit(ContendedLock.THREADS_KEPT).toList());
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
