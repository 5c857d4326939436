package dev.lockscope.analysis.bottle;

/**
 * What a thread was doing off-CPU over [startNanos, endNanos) on the scheduling time line
 * (CLOCK_MONOTONIC): {@code state} such as "blocked on monitor", "parked", "waiting", "sleeping",
 * "finished"; {@code detail} names the lock or blocker (class and code location) where known.
 */
public record WaitInterval(int tid, long startNanos, long endNanos, String state, String detail) {
}
