package dev.lockscope.report.profile;

import dev.lockscope.analysis.profile.CallTree;
import dev.lockscope.analysis.profile.ProfileDiff;
import dev.lockscope.analysis.profile.Profiles;
import dev.lockscope.report.export.CollapsedStacks;
import dev.lockscope.report.export.ProfileStacks;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ProfileRenderersTest {
    private static final long PERIOD = 20_000_000L;

    private static Profiles profiles() {
        CallTree<String> cpu = new CallTree<>();
        cpu.add(List.of("app.Main.run", "app.Main.compute"), 3);
        cpu.add(List.of("app.Main.run"), 1);
        CallTree<String> wall = new CallTree<>();
        wall.add(List.of("app.Main.run", "app.Main.compute"), 60_000_000L);
        wall.add(List.of("app.Main.run", "app.Main.locked", "[blocked on app.Lock]"), 140_000_000L);
        return new Profiles(PERIOD, true, Map.of("worker-*", cpu), Map.of("worker-*", wall), 60_000_000L);
    }

    @Test
    void collapsedStacksOfAProfileAddUpToItsTotalWithTheGroupAsRoot() {
        String cpu = CollapsedStacks.render(ProfileStacks.of(profiles(), false, null));
        assertThat(cpu).isEqualTo("worker-*;app.Main.run " + PERIOD + "\n"
                + "worker-*;app.Main.run;app.Main.compute " + 3 * PERIOD + "\n");
        String wall = CollapsedStacks.render(ProfileStacks.of(profiles(), true, "worker-*"));
        assertThat(wall).contains("worker-*;app.Main.run;app.Main.locked;[blocked on app.Lock] 140000000\n");
        assertThat(CollapsedStacks.render(ProfileStacks.of(profiles(), true, "other"))).isEmpty();
    }

    @Test
    void textShowsGroupsTheFlatProfileAndTheTree() {
        String text = ProfileTextReport.render(profiles(), true, null, 10);
        assertThat(text).startsWith("Wall-clock profile: 200.0 ms of thread time, 60.0 ms running (execution samples every 20.0 ms), "
                + "140.0 ms waiting");
        assertThat(text).contains("  100.00%    200.0 ms  worker-*\n")
                .contains("   70.00%   70.00%    140.0 ms    140.0 ms  [blocked on app.Lock]\n")
                .contains("    0.00%  100.00%      0.0 ms    200.0 ms  app.Main.run\n")
                .contains("   70.00%   0.00%     app.Main.locked\n");
        assertThat(ProfileTextReport.render(profiles(), false, "worker-*", 10)).startsWith(
                "CPU profile of worker-*: 4 samples every 20.0 ms (80.0 ms of CPU)");
    }

    @Test
    void diffTextListsRowsAndWhatGrew() {
        ProfileDiff d = ProfileDiff.of(profiles(), profiles(), true, 0.1);
        String text = ProfileDiffReport.text(d, "a.jfr", "b.jfr", 5);
        assertThat(text).contains("all threads").contains("100.0%").contains("Grew most").contains("  none\n");
        assertThat(ProfileDiffReport.html(d, profiles().wall(), profiles().wall(), "a.jfr", "b.jfr"))
                .contains("lockscope diff: a.jfr → b.jfr").doesNotContain("{{");
    }
}
