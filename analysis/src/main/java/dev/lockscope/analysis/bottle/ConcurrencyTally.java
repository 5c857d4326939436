package dev.lockscope.analysis.bottle;

import java.util.Arrays;

/**
 * One thread's running time split by how many threads ran at once: {@code nanos[r]} is the total
 * length of intervals i with this thread in R_i and r_i = r. Eq. 1 and 2 follow exactly from it.
 */
public final class ConcurrencyTally {
    private long[] nanos = new long[4];
    private long preempted;

    void addRunning(int concurrency, long t) {
        if (concurrency >= nanos.length) {
            nanos = Arrays.copyOf(nanos, Math.max(concurrency + 1, nanos.length * 2));
        }
        nanos[concurrency] += t;
    }

    void addPreempted(long t) {
        preempted += t;
    }

    /** Adds another thread's tally: a box of several threads (S and A are sums over them, Du Bois et al. §2.1). */
    void add(ConcurrencyTally other) {
        for (int r = 1; r < other.nanos.length; r++) {
            if (other.nanos[r] != 0) {
                addRunning(r, other.nanos[r]);
            }
        }
        preempted += other.preempted;
    }

    public long preemptedNanos() {
        return preempted;
    }

    /** Du Bois et al. Eq. 1: S_j = Σ_{i: j ∈ R_i} t_i / r_i. */
    public Rational share() {
        Rational s = Rational.ZERO;
        for (int r = 1; r < nanos.length; r++) {
            if (nanos[r] != 0) {
                s = s.plus(Rational.of(nanos[r], r));
            }
        }
        return s;
    }

    /** Running time A_j = Σ_{i: j ∈ R_i} t_i (Du Bois et al. §2.1: the box area S_j · P_j). */
    public long running() {
        long a = 0;
        for (int r = 1; r < nanos.length; r++) {
            a += nanos[r];
        }
        return a;
    }

    /** Du Bois et al. Eq. 2: P_j = (Σ_{i: j ∈ R_i} t_i) / S_j, the t-weighted harmonic mean of r_i; 0 if never ran. */
    public Rational parallelism() {
        Rational s = share();
        return s.isZero() ? Rational.ZERO : Rational.of(running()).dividedBy(s);
    }
}
