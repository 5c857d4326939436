package dev.lockscope.analysis.profile;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ProfileDiffTest {
    private static Profiles profile(Map<String, CallTree<String>> cpu) {
        return new Profiles(20_000_000L, true, cpu, Map.of(), 0);
    }

    private static CallTree<String> tree(long f, long g) {
        CallTree<String> t = new CallTree<>();
        t.add(List.of("m", "f"), f);
        t.add(List.of("m", "g"), g);
        return t;
    }

    @Test
    void rowsPerGroupAndForAllThreadsWithOverlapAndCoverageBothWays() {
        CallTree<String> onlyInB = new CallTree<>();
        onlyInB.add(List.of("x"), 4);
        Profiles a = profile(Map.of("pool-*", tree(3, 1)));
        Profiles b = profile(Map.of("pool-*", tree(1, 1), "timer", onlyInB));
        ProfileDiff d = ProfileDiff.of(a, b, false, 0.5);

        assertThat(d.rows()).extracting(ProfileDiff.Row::group).containsExactly(null, "pool-*", "timer");
        ProfileDiff.Row pool = d.rows().get(1);
        assertThat(pool.overlap()).isCloseTo(0.75, within(1e-12)); // min(.75, .5) + min(.25, .5)
        // at T = 0.5, a's hot edges are {f} (g: 1 < 1.5), b's are {f, g}: a covers half of b's, b all of a's
        assertThat(pool.aCoversB()).isEqualTo(0.5);
        assertThat(pool.bCoversA()).isEqualTo(1.0);
        ProfileDiff.Row timer = d.rows().get(2);
        assertThat(timer.weightA()).isZero();
        assertThat(timer.overlap()).isZero();
        // all threads: the group is the outermost frame; two thirds of b are in the new group
        assertThat(d.rows().get(0).overlap()).isCloseTo(1.0 / 6 + 1.0 / 6, within(1e-12));
    }

    @Test
    void changesAreTheCallPathsWhoseShareMovedMostFirst() {
        Profiles a = profile(Map.of("pool-*", tree(3, 1)));
        Profiles b = profile(Map.of("pool-*", tree(1, 3)));
        List<ProfileDiff.Change> changes = ProfileDiff.of(a, b, false, 0.1).changes();
        assertThat(changes).hasSize(2);
        assertThat(changes.get(0).delta()).isCloseTo(-0.5, within(1e-12));
        assertThat(changes.get(0).path()).containsExactly("pool-*", "m", "f");
        assertThat(changes.get(1).delta()).isCloseTo(0.5, within(1e-12));
    }
}
