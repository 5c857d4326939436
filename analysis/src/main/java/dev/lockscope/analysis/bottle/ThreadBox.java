package dev.lockscope.analysis.bottle;

/**
 * One thread's box (Du Bois et al. §2.1): height {@code share} S_j (Eq. 1), width {@code parallelism}
 * P_j (Eq. 2), area {@code running} A_j = S_j · P_j. Times in nanoseconds; {@code preemptedNanos}
 * is time spent runnable but not running, which the paper counts as inactive.
 *
 * <p>A box of virtual threads ({@code virtualThreads} &gt; 0) is all the virtual threads of one executor or
 * factory together (S and A summed over them): the time their carriers ran them. Its {@code osTid} is
 * negative, a key of this graph only; the carriers' own boxes keep the time they ran nothing mounted.
 */
public record ThreadBox(int osTid, String name, String group, ThreadKind kind, Rational share, Rational running,
                        Rational parallelism, long preemptedNanos, int virtualThreads) implements Box {
    public ThreadBox(int osTid, String name, String group, ThreadKind kind, Rational share, Rational running,
                     Rational parallelism, long preemptedNanos) {
        this(osTid, name, group, kind, share, running, parallelism, preemptedNanos, 0);
    }

    /** Whether this box is virtual threads run by carriers, not an OS thread. */
    public boolean isVirtual() {
        return virtualThreads > 0;
    }
}
