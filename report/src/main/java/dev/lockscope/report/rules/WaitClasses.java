package dev.lockscope.report.rules;

import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.blame.WaitRow;
import dev.lockscope.core.LockMetrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The classification of a recording's waits: one verdict per lock of the contention table, and the
 * idle time summed per pool of threads.
 *
 * @param locks     the contention table's locks
 * @param verdicts  one per lock, in the same order
 * @param idlePools the idle locks' waits per pool, most idle time first
 */
public record WaitClasses(List<LockMetrics> locks, List<WaitClassifier.Verdict> verdicts, List<IdlePool> idlePools) {
    public WaitClasses {
        locks = List.copyOf(locks);
        verdicts = List.copyOf(verdicts);
        idlePools = List.copyOf(idlePools);
    }

    /**
     * Idle waits of one pool of threads.
     *
     * @param pool  the thread-name pattern, digits replaced by {@code #} ({@code pool-#-thread-#})
     * @param nanos the threads' idle time in all
     * @param waits how many waits
     * @param rules the rules that classified its waits as idle
     */
    public record IdlePool(String pool, long nanos, long waits, List<String> rules) {
        public IdlePool {
            rules = List.copyOf(rules);
        }
    }

    /** Classifies every lock once; blame rows and conditional waits are grouped by lock first (a recording may have thousands of each). */
    public static WaitClasses of(LockContention contention, BlameSummary blame, WaitClassifier classifier) {
        Map<LockId, List<BlameRow>> rowsByLock = new HashMap<>();
        blame.rows().forEach(r -> rowsByLock.computeIfAbsent(contention.rowOf(r.lock()), k -> new ArrayList<>()).add(r));
        Map<LockId, List<WaitRow>> waitsByLock = new HashMap<>();
        blame.waits().forEach(w -> waitsByLock.computeIfAbsent(contention.rowOf(w.lock()), k -> new ArrayList<>()).add(w));
        List<WaitClassifier.Verdict> verdicts = new ArrayList<>();
        Map<String, long[]> idle = new LinkedHashMap<>();
        Map<String, TreeSet<String>> rules = new LinkedHashMap<>();
        for (LockMetrics lock : contention.rows()) {
            LockId id = new LockId(lock.kind(), lock.className(), lock.identityHash());
            WaitClassifier.Verdict v = classifier.classify(lock, rowsByLock.getOrDefault(id, List.of()),
                    waitsByLock.getOrDefault(id, List.of()));
            verdicts.add(v);
            if (v.waitClass() == WaitClass.IDLE) {
                // a lock's waits are counted to the pool of its first waiter: the threads of one queue are one pool
                String pool = pool(lock.firstThread());
                long[] sum = idle.computeIfAbsent(pool, k -> new long[2]);
                sum[0] += lock.totalWaitNanos();
                sum[1] += lock.timesParked();
                rules.computeIfAbsent(pool, k -> new TreeSet<>()).add(v.rule());
            }
        }
        List<IdlePool> pools = new ArrayList<>();
        idle.forEach((pool, sum) -> pools.add(new IdlePool(pool, sum[0], sum[1], List.copyOf(rules.get(pool)))));
        pools.sort(Comparator.comparingLong(IdlePool::nanos).reversed());
        return new WaitClasses(contention.rows(), verdicts, pools);
    }

    /** {@code pool-3-thread-12} → {@code pool-#-thread-#}: the threads of one pool differ only in numbers. */
    public static String pool(String threadName) {
        return threadName == null ? "(unknown thread)" : threadName.replaceAll("[0-9]+", "#");
    }

    /** The verdict on the contention table's {@code index}-th lock. */
    public WaitClassifier.Verdict of(int index) {
        return verdicts.get(index);
    }

    /** The verdict on one of {@link #locks}, found by identity. */
    public WaitClassifier.Verdict verdictOf(LockMetrics lock) {
        for (int i = 0; i < locks.size(); i++) {
            if (locks.get(i) == lock) {
                return verdicts.get(i);
            }
        }
        throw new IllegalArgumentException("not a lock of this recording's table: " + lock.className());
    }
}
