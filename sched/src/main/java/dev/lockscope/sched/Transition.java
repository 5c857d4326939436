package dev.lockscope.sched;

/** Thread {@code tid} enters {@code state} at {@code nanos} (CLOCK_MONOTONIC, as System.nanoTime on Linux). */
public record Transition(long nanos, int tid, ThreadState state) {
}
