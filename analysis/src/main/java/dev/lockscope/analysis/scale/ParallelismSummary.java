package dev.lockscope.analysis.scale;

/**
 * Per point, the bottle-graph summary of issue 8 (seed 003 Eq. 1–2 grouped: application vs GC vs
 * JIT): each group's parallelism P = A / S, or NaN where unknown.
 *
 * <p>HOOK: the bottle-graph analysis ({@code dev.lockscope.analysis.bottle}, with the {@code sched}
 * module's context switches) is not on this branch; the CLI's sweep runner fills
 * {@link PointRun#parallelism()} from it once merged. Until then the sweep reports none.
 */
public record ParallelismSummary(double application, double gc, double jit) {
}
