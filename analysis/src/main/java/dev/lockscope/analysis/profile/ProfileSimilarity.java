package dev.lockscope.analysis.profile;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.List;
import java.util.Map;

/**
 * How alike two calling context trees are, as Hofer, <i>Method Profiling and Lock Contention Profiling
 * on the JVM Level</i>, §3.4 defines it (after Zhuang et al. 2006): edges are equivalent when their
 * callee and all their callers are, i.e. when their paths from the root are equal.
 */
public final class ProfileSimilarity {
    /** The thesis uses T = 0.1 throughout: an edge is hot at 10% of the hottest edge's weight. */
    public static final double DEFAULT_HOT_THRESHOLD = 0.1;

    private ProfileSimilarity() {
    }

    /**
     * Degree of overlap: Σ over the edges both trees have of min(relative weight in a, in b), where an
     * edge's relative weight is its self weight over the sum of all self weights. 1 for identical
     * distributions, 0 for trees with no edge in common; symmetric.
     */
    public static <F> double overlap(CallTree<F> a, CallTree<F> b) {
        Map<List<F>, Long> ea = a.edgeWeights();
        Map<List<F>, Long> eb = b.edgeWeights();
        BigInteger sa = sum(ea);
        BigInteger sb = sum(eb);
        if (sa.signum() == 0 || sb.signum() == 0) {
            return 0;
        }
        // Σ min(wa/sa, wb/sb) = Σ min(wa·sb, wb·sa) / (sa·sb), in exact integers so that a tree's
        // overlap with itself is exactly 1 and the sum never exceeds 1 by rounding
        BigInteger common = BigInteger.ZERO;
        for (Map.Entry<List<F>, Long> e : ea.entrySet()) {
            Long wb = eb.get(e.getKey());
            if (wb != null) {
                BigInteger x = BigInteger.valueOf(e.getValue()).multiply(sb);
                BigInteger y = BigInteger.valueOf(wb).multiply(sa);
                common = common.add(x.min(y));
            }
        }
        return new BigDecimal(common).divide(new BigDecimal(sa.multiply(sb)), MathContext.DECIMAL64).doubleValue();
    }

    /**
     * Hot-edge coverage of {@code b} by {@code a}: |hot(a) ∩ hot(b)| / |hot(b)|, where hot(C) holds the
     * edges whose self weight is at least {@code threshold} times that of C's single hottest edge. Not
     * commutative: a profile that has every hot edge of b and more covers b fully, not the reverse.
     *
     * @return 1 when b has no edge at all (nothing to cover)
     */
    public static <F> double hotEdgeCoverage(CallTree<F> a, CallTree<F> b, double threshold) {
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalArgumentException("threshold must be within [0, 1], got " + threshold);
        }
        Map<List<F>, Long> hotA = hot(a.edgeWeights(), threshold);
        Map<List<F>, Long> hotB = hot(b.edgeWeights(), threshold);
        if (hotB.isEmpty()) {
            return 1;
        }
        long common = hotB.keySet().stream().filter(hotA::containsKey).count();
        return (double) common / hotB.size();
    }

    private static <F> Map<List<F>, Long> hot(Map<List<F>, Long> edges, double threshold) {
        long hottest = edges.values().stream().mapToLong(Long::longValue).max().orElse(0);
        Map<List<F>, Long> out = new java.util.HashMap<>();
        edges.forEach((path, w) -> {
            if (w > 0 && w >= threshold * hottest) {
                out.put(path, w);
            }
        });
        return out;
    }

    private static BigInteger sum(Map<?, Long> m) {
        BigInteger s = BigInteger.ZERO;
        for (long v : m.values()) {
            s = s.add(BigInteger.valueOf(v));
        }
        return s;
    }
}
