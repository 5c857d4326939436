package dev.lockscope.sched;

/**
 * Run-queue wait of {@code tid} accrued during the sampling window that ends at {@code nanos}
 * (schedstat field 2). Only the /proc fallback produces these; with perf, preemption is the time
 * spent in {@link ThreadState#RUNNABLE}.
 */
public record RunQueueWait(long nanos, int tid, long waitNanos) {
}
