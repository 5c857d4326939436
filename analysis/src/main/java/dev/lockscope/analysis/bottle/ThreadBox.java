package dev.lockscope.analysis.bottle;

/**
 * One thread's box (seed 003 §2.1): height {@code share} S_j (Eq. 1), width {@code parallelism}
 * P_j (Eq. 2), area {@code running} A_j = S_j · P_j. Times in nanoseconds; {@code preemptedNanos}
 * is time spent runnable but not running, which the paper counts as inactive.
 */
public record ThreadBox(int osTid, String name, String group, ThreadKind kind, Rational share, Rational running,
                        Rational parallelism, long preemptedNanos) implements Box {
}
