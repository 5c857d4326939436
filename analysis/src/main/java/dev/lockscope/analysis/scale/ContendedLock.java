package dev.lockscope.analysis.scale;

import dev.lockscope.core.Frame;

import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.BlameResult;
import dev.lockscope.analysis.blame.ChainView;
import dev.lockscope.analysis.blame.Contention;
import dev.lockscope.analysis.blame.ConvoyWaiters;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.blame.OwnerChain;
import dev.lockscope.analysis.blame.WaitRecord;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One contended lock in one run: how long threads waited on it, where they waited, and who held it.
 *
 * @param site            the frame that takes the lock: the first waiter frame outside Java's lock
 *                        machinery (for a monitor, the synchronized method or block)
 * @param waiterFrames    the waiters' call chain with the most wait, from the site on, innermost first
 * @param ownerFrames     the holders' call chain with the most blamed wait, innermost first, lock
 *                        machinery removed
 * @param ownerSource     how far that chain can be trusted, as owner blame says ({@link OwnerChain}:
 *                        {@code exact}, {@code acquisition-site}, {@code sampled}), or {@code waiter-site}
 *                        when no owner chain is known and the waiters' own code stands in (the code
 *                        that waits is the code that holds it whenever all threads run the same path)
 * @param waits           times parked (blocked on entry) on the lock
 * @param threadTimeNanos total wait thread-time: the contention table's §3.7.8 for the lock
 * @param waiterThreads   names of the threads that waited, sorted, at most {@link #THREADS_KEPT}
 */
public record ContendedLock(LockKind kind, String className, String site, List<String> waiterFrames,
                            List<String> ownerFrames, String ownerSource, long waits, long threadTimeNanos,
                            List<String> waiterThreads) {
    public static final int THREADS_KEPT = 16;
    /** Frames kept of each call chain: enough to name the method and its caller. */
    static final int FRAMES_KEPT = 6;
    static final String WAITER_SITE = "waiter-site";

    public ContendedLock {
        waiterFrames = List.copyOf(waiterFrames);
        ownerFrames = List.copyOf(ownerFrames);
        waiterThreads = List.copyOf(waiterThreads);
    }

    /**
     * The contended locks of one recording, largest wait first: {@code rows} of the contention table (the report's
     * contention rows), their waiters and holders those of owner blame, both read in the same pass.
     */
    public static List<ContendedLock> of(LockContention table, List<LockMetrics> rows, BlameResult blameOfObjects) {
        BlameResult blame = table.byRow(blameOfObjects); // one lock site is one lock here, as in the report
        Map<LockId, List<Contention>> contentionByLock = new HashMap<>();
        blame.contentions().forEach(c -> contentionByLock.computeIfAbsent(c.lock(), k -> new ArrayList<>()).add(c));
        Map<LockId, List<WaitRecord>> waitsByLock = new HashMap<>();
        blame.waits().forEach(w -> waitsByLock.computeIfAbsent(w.lock(), k -> new ArrayList<>()).add(w));
        List<ContendedLock> out = new ArrayList<>(rows.size());
        for (LockMetrics m : rows) {
            LockId id = new LockId(m.kind(), m.className(), m.identityHash());
            out.add(of(m, contentionByLock.getOrDefault(id, List.of()), waitsByLock.getOrDefault(id, List.of())));
        }
        out.sort(Comparator.comparingLong(ContendedLock::threadTimeNanos).reversed().thenComparing(ContendedLock::key));
        return out;
    }

    private static ContendedLock of(LockMetrics m, List<Contention> contentions, List<WaitRecord> conditionWaits) {
        ChainVotes waiters = new ChainVotes();
        ChainVotes owners = new ChainVotes();
        TreeSet<String> threads = new TreeSet<>();
        for (Contention c : contentions) {
            waiters.add(c.waiterFrames(), c.nanos(), WAITER_SITE);
            if (!ConvoyWaiters.isGroup(c.waiter())) {
                threads.add(c.waiter().name());
            }
            if (!c.cause().frames().isEmpty()) {
                owners.add(c.cause().frames(), c.nanos(), c.cause().chain().label());
            }
        }
        for (WaitRecord w : conditionWaits) {
            waiters.add(w.frames(), w.nanos(), WAITER_SITE);
            threads.add(w.waiter().name());
        }
        if (waiters.isEmpty()) {
            waiters.add(m.firstFrames(), 1, WAITER_SITE);
            threads.add(m.firstThread());
        }
        ChainVotes.Chain waiter = waiters.winner();
        ChainVotes.Chain owner = owners.isEmpty() ? waiter : owners.winner();
        String site = waiter.frames().isEmpty() ? "?" : waiter.frames().get(0);
        return new ContendedLock(m.kind(), m.className(), site, waiter.frames(), owner.frames(), owner.source(),
                m.timesParked(), m.totalWaitNanos(), threads.stream().limit(THREADS_KEPT).toList());
    }

    /**
     * Same lock in another run, where addresses and hashes change: same kind, class and calling
     * method (the waiters' innermost application or middleware method, without its line; the site's
     * method when there is none). Methods rather than lines, because the waiters of one JDK lock
     * queue at whichever of its synchronized methods they call first ({@code Hashtable.size} or
     * {@code get}), and that can change from run to run.
     */
    public String key() {
        String caller = LayerClassifier.defaults().firstUserFrame(waiterFrames).orElse(site);
        return kind.label() + "|" + className + "|" + Frame.parse(caller).function();
    }

    /** Call chains (lock machinery removed, cut to {@link #FRAMES_KEPT}) weighted by wait; the heaviest wins, ties by text. */
    private static final class ChainVotes {
        record Chain(List<String> frames, String source) {
        }

        private final Map<Chain, Long> weights = new HashMap<>();

        void add(List<String> frames, long nanos, String source) {
            List<String> visible = ChainView.FILTERED.visible(frames);
            Chain chain = new Chain(List.copyOf(visible.subList(0, Math.min(FRAMES_KEPT, visible.size()))), source);
            weights.merge(chain, Math.max(nanos, 1), Long::sum);
        }

        boolean isEmpty() {
            return weights.isEmpty();
        }

        Chain winner() {
            return weights.entrySet().stream()
                    .max(Map.Entry.<Chain, Long>comparingByValue()
                            .thenComparing(e -> e.getKey().toString(), Comparator.reverseOrder()))
                    .map(Map.Entry::getKey).orElseThrow();
        }
    }
}
