package dev.lockscope.analysis.bottle;

/**
 * A group of threads as one box (Du Bois et al. §2.1, "mathematically sound to aggregate"):
 * S = Σ S_j, A = Σ A_j, P = A / S.
 */
public record GroupBox(String name, ThreadKind kind, int threads, Rational share, Rational running,
                       Rational parallelism, long preemptedNanos) implements Box {
}
