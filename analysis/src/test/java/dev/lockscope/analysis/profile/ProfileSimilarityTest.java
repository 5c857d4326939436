package dev.lockscope.analysis.profile;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ProfileSimilarityTest {
    /** Hofer Fig. 3.1's shape: 6 samples, u executing under a in 2 of them. */
    private static CallTree<String> fig31() {
        CallTree<String> t = new CallTree<>();
        t.add(List.of("main", "a", "u"), 1);
        t.add(List.of("main", "a", "u"), 1);
        t.add(List.of("main", "a"), 1);
        t.add(List.of("main", "b", "u"), 1);
        t.add(List.of("main", "b"), 1);
        t.add(List.of("main"), 1);
        return t;
    }

    @Test
    void edgeWeightIsTheSamplesInWhichTheCalleeWasTopmost() {
        CallTree<String> t = fig31();
        assertThat(t.totalWeight()).isEqualTo(6);
        assertThat(t.edgeWeights().get(List.of("main", "a", "u"))).isEqualTo(2);
        assertThat((double) t.edgeWeights().get(List.of("main", "a", "u")) / t.totalWeight()).isCloseTo(1.0 / 3, within(1e-12));
        // u under b is another edge: equivalent only with equal callers
        assertThat(t.edgeWeights().get(List.of("main", "b", "u"))).isEqualTo(1);
    }

    @Test
    void overlapOfATreeWithItselfIsOneAndOfDisjointTreesZero() {
        assertThat(ProfileSimilarity.overlap(fig31(), fig31())).isEqualTo(1.0);
        CallTree<String> other = new CallTree<>();
        other.add(List.of("x", "y"), 5);
        assertThat(ProfileSimilarity.overlap(fig31(), other)).isZero();
    }

    @Test
    void overlapSumsTheSmallerRelativeWeightOfCommonEdges() {
        CallTree<String> a = new CallTree<>();
        a.add(List.of("m", "f"), 3);
        a.add(List.of("m", "g"), 1);
        CallTree<String> b = new CallTree<>();
        b.add(List.of("m", "f"), 1);
        b.add(List.of("m", "g"), 1);
        // f: min(.75, .5) + g: min(.25, .5)
        assertThat(ProfileSimilarity.overlap(a, b)).isCloseTo(0.75, within(1e-12));
        assertThat(ProfileSimilarity.overlap(b, a)).isCloseTo(0.75, within(1e-12));
    }

    @Test
    void hotEdgeCoverageIsAsymmetricAndRelativeToTheHottestEdge() {
        CallTree<String> big = new CallTree<>();
        big.add(List.of("m", "f"), 100);
        big.add(List.of("m", "g"), 50);
        big.add(List.of("m", "h"), 9); // 9 < 0.1 * 100: not hot
        CallTree<String> small = new CallTree<>();
        small.add(List.of("m", "f"), 10);
        small.add(List.of("m", "h"), 10); // hot here: as hot as the hottest
        // hot(big) = {f, g}; hot(small) = {f, h}
        assertThat(ProfileSimilarity.hotEdgeCoverage(big, small, 0.1)).isEqualTo(0.5);
        CallTree<String> onlyF = new CallTree<>();
        onlyF.add(List.of("m", "f"), 1);
        assertThat(ProfileSimilarity.hotEdgeCoverage(big, onlyF, 0.1)).isEqualTo(1.0);
        assertThat(ProfileSimilarity.hotEdgeCoverage(onlyF, big, 0.1)).isEqualTo(0.5);
        // the threshold is relative: h becomes hot in big at T = 0.09
        assertThat(ProfileSimilarity.hotEdgeCoverage(big, small, 0.09)).isEqualTo(1.0);
    }

    @Test
    void flatProfileCountsARecursiveFrameOncePerSample() {
        CallTree<String> t = new CallTree<>();
        t.add(List.of("main", "r", "r", "leaf"), 4);
        t.add(List.of("main", "r"), 1);
        long[] r = t.flat().get("r");
        assertThat(r[0]).isEqualTo(1); // self
        assertThat(r[1]).isEqualTo(5); // total, not 9
        assertThat(t.flat().get("main")[1]).isEqualTo(5);
    }
}
