package dev.lockscope.report.rules;

import dev.lockscope.core.LockMetrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The classification of a recording's waits: one verdict per lock of the contention table, and the
 * idle time summed per pool of threads.
 *
 * @param verdicts  one per lock, in the contention table's order
 * @param idlePools the idle locks' waits per pool, most idle time first
 */
public record WaitClasses(List<WaitClassifier.Verdict> verdicts, List<IdlePool> idlePools) {
    public WaitClasses {
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

    public static WaitClasses of(RuleInput input) {
        List<WaitClassifier.Verdict> verdicts = new ArrayList<>();
        Map<String, long[]> idle = new LinkedHashMap<>();
        Map<String, TreeSet<String>> rules = new LinkedHashMap<>();
        for (LockMetrics lock : input.contention().locks()) {
            WaitClassifier.Verdict v = input.verdict(lock);
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
        return new WaitClasses(verdicts, pools);
    }

    /** {@code pool-3-thread-12} → {@code pool-#-thread-#}: the threads of one pool differ only in numbers. */
    public static String pool(String threadName) {
        return threadName == null ? "(unknown thread)" : threadName.replaceAll("[0-9]+", "#");
    }

    /** The verdict on the contention table's {@code index}-th lock. */
    public WaitClassifier.Verdict of(int index) {
        return verdicts.get(index);
    }

    /** Whether any lock's waits were contention. */
    public boolean anyContention() {
        return verdicts.stream().anyMatch(v -> v.waitClass() == WaitClass.CONTENTION);
    }
}
