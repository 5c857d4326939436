package dev.lockscope.analysis.bottle;

import java.util.List;

/**
 * One bottle graph over [{@code fromNanos}, {@code toNanos}).
 *
 * @param threads           boxes of threads that ran, widest (highest P) first, i.e. bottom first
 * @param groups            group boxes, widest first
 * @param busyNanos         time with at least one thread running; equals Σ S_j (seed 003 §2.1)
 * @param oversubscribedNanos time during which more threads were runnable than there are CPUs
 *                          (perf only; the /proc fallback reports run-queue wait per thread instead)
 * @param maxRunnable       most threads runnable at once (perf only; 0 if unknown)
 * @param approximateReason null when exact
 */
public record BottleGraph(long fromNanos, long toNanos, int cpus, String source, String approximateReason,
                          List<ThreadBox> threads, List<GroupBox> groups, long busyNanos,
                          long oversubscribedNanos, int maxRunnable) {
    public BottleGraph {
        threads = List.copyOf(threads);
        groups = List.copyOf(groups);
    }

    public long wallNanos() {
        return toNanos - fromNanos;
    }

    public long preemptedNanos() {
        return threads.stream().mapToLong(ThreadBox::preemptedNanos).sum();
    }

    /**
     * Non-null when the machine, not the program, bounded parallelism (seed 003 §2.3: the graph
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
