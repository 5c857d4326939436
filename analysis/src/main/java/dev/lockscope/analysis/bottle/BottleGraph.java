package dev.lockscope.analysis.bottle;

import java.util.List;
import java.util.Map;

/**
 * One bottle graph over [{@code fromNanos}, {@code toNanos}).
 *
 * @param threads           boxes of threads that ran, widest (highest P) first, i.e. bottom first
 * @param groups            group boxes, widest first
 * @param busyNanos         time with at least one thread running; equals Σ S_j (Du Bois et al. §2.1)
 * @param oversubscribedNanos time during which more threads were runnable than there are CPUs
 *                          (perf only; the /proc fallback reports run-queue wait per thread instead)
 * @param maxRunnable       most threads runnable at once (perf only; 0 if unknown)
 * @param approximateReason null when exact
 * @param stealNanosByTid   each thread's share of the machine's steal time over the recording (steal
 *                          accounting, from the recording's CPU-time samples), by OS thread id; empty when
 *                          the recording has none. A box's running time counts it: the guest kernel's
 *                          context switches do not see the hypervisor run another guest's vCPU.
 */
public record BottleGraph(long fromNanos, long toNanos, int cpus, String source, String approximateReason,
                          List<ThreadBox> threads, List<GroupBox> groups, long busyNanos,
                          long oversubscribedNanos, int maxRunnable, Map<Integer, Long> stealNanosByTid) {
    public BottleGraph {
        threads = List.copyOf(threads);
        groups = List.copyOf(groups);
        stealNanosByTid = Map.copyOf(stealNanosByTid);
    }

    public BottleGraph(long fromNanos, long toNanos, int cpus, String source, String approximateReason,
                       List<ThreadBox> threads, List<GroupBox> groups, long busyNanos, long oversubscribedNanos,
                       int maxRunnable) {
        this(fromNanos, toNanos, cpus, source, approximateReason, threads, groups, busyNanos, oversubscribedNanos,
                maxRunnable, Map.of());
    }

    /** The same graph with each thread's steal time beside its box. */
    public BottleGraph withSteal(Map<Integer, Long> stealByTid) {
        return new BottleGraph(fromNanos, toNanos, cpus, source, approximateReason, threads, groups, busyNanos,
                oversubscribedNanos, maxRunnable, stealByTid);
    }

    /** Whether steal times were recorded beside this graph. */
    public boolean hasSteal() {
        return !stealNanosByTid.isEmpty();
    }

    /** A thread box's steal time (0 without one), or a group box's: the sum over its threads. */
    public long stealNanos(Box box) {
        if (box instanceof ThreadBox t) {
            return stealNanosByTid.getOrDefault(t.osTid(), 0L);
        }
        return threads.stream().filter(t -> t.group().equals(box.name())).mapToLong(this::stealNanos).sum();
    }

    public long wallNanos() {
        return toNanos - fromNanos;
    }

    public long preemptedNanos() {
        return threads.stream().mapToLong(ThreadBox::preemptedNanos).sum();
    }

    /**
     * Non-null when the machine, not the program, bounded parallelism (Du Bois et al. §2.3: the graph
     * assumes at least as many CPUs as runnable threads). Threshold: 1% of busy time.
     */
    public String machineBoundWarning() {
        long threshold = Math.max(1, busyNanos / 100);
        if (oversubscribedNanos >= threshold) {
            return String.format(java.util.Locale.ROOT,
                    "up to %d threads were runnable on %d CPUs for %.1f%% of the busy time: parallelism is "
                            + "bounded by the machine, not the program", maxRunnable, cpus,
                    100.0 * oversubscribedNanos / busyNanos);
        }
        long preempted = preemptedNanos();
        if (maxRunnable == 0 && preempted >= threshold) {
            return String.format(java.util.Locale.ROOT,
                    "threads waited %.1f%% of the busy time on run queues of %d CPUs: parallelism is bounded "
                            + "by the machine, not the program", 100.0 * preempted / busyNanos, cpus);
        }
        return null;
    }
}
