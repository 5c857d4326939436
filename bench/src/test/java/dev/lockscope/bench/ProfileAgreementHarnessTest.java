package dev.lockscope.bench;

import dev.lockscope.analysis.profile.CallTree;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ProfileAgreementHarnessTest {
    private static final String SPLIT = TimeSplitWorkload.class.getName();

    @Test
    void theWorkloadsTruthIsReadFromItsOutput() {
        String output = """
                Profiling started
                truth-total compute 2444081674
                truth-total nap 1612829136
                lockscope: 3 lock sites
                truth-total awaitLock 2086474071
                truth-total loop 6143466429
                """;
        assertThat(ProfileAgreementHarness.truth(output)).containsExactly(Map.entry("compute", 2444081674L),
                Map.entry("nap", 1612829136L), Map.entry("awaitLock", 2086474071L), Map.entry("loop", 6143466429L));
    }

    @Test
    void aPhasesShareIsEverythingInOrBelowItsMethod() {
        String loop = SPLIT + ".lambda$main$1";
        CallTree<String> lockscope = new CallTree<>();
        lockscope.add(List.of("java.lang.Thread.run", loop, SPLIT + ".compute"), 40);
        lockscope.add(List.of("java.lang.Thread.run", loop, SPLIT + ".nap"), 25);
        lockscope.add(List.of("java.lang.Thread.run", loop, SPLIT + ".awaitLock", "java.util.concurrent.Semaphore.release"), 5);
        lockscope.add(List.of("java.lang.Thread.run", loop, SPLIT + ".awaitLock"), 25);
        lockscope.add(List.of("java.lang.Thread.run", loop), 5);
        CallTree<String> asyncProfiler = new CallTree<>();
        asyncProfiler.add(List.of("java.lang.Thread.run", loop, SPLIT + ".compute"), 1);
        asyncProfiler.add(List.of("java.lang.Thread.run", loop, SPLIT + ".nap"), 3);

        Map<String, double[]> shares = ProfileAgreementHarness.shares(lockscope, asyncProfiler);
        assertThat(shares).containsOnlyKeys("compute", "nap", "awaitLock");
        assertThat(shares.get("compute")).containsExactly(0.40, 0.25);
        assertThat(shares.get("nap")).containsExactly(0.25, 0.75);
        assertThat(shares.get("awaitLock")).containsExactly(0.30, 0.0);
    }
}
