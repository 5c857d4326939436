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

    @Test
    void diffJsonGivesOverlapAndCoveragePerGroupAndWhatGrewAndShrank() throws Exception {
        CallTree<String> after = new CallTree<>();
        after.add(List.of("app.Main.run", "app.Main.compute"), 1);
        after.add(List.of("app.Main.run"), 3);
        CallTree<String> io = new CallTree<>();
        io.add(List.of("app.Io.read"), 4);
        Profiles second = new Profiles(PERIOD, true, Map.of("worker-*", after, "io-*", io), Map.of(), 0);
        ProfileDiff d = ProfileDiff.of(profiles(), second, false, 0.1);

        var root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(ProfileDiffReport.json(d, "a.jfr", "b.jfr", 5));
        assertThat(root.get("schemaVersion").asInt()).isEqualTo(ProfileDiffReport.SCHEMA_VERSION);
        assertThat(root.get("kind").asText()).isEqualTo("CPU");
        assertThat(root.get("unit").asText()).isEqualTo("samples");
        assertThat(root.get("a").asText()).isEqualTo("a.jfr");
        assertThat(root.get("threshold").asDouble()).isEqualTo(0.1);
        var rows = root.get("rows");
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).get("group").isNull()).as("all threads first").isTrue();
        assertThat(rows.get(1).get("group").asText()).isEqualTo("io-*");
        assertThat(rows.get(1).get("a").asLong()).isZero();
        assertThat(rows.get(1).get("b").asLong()).isEqualTo(4);
        var worker = rows.get(2);
        assertThat(worker.get("group").asText()).isEqualTo("worker-*");
        // compute: 3 of 4 samples before, 1 of 4 after; run's own time 1 of 4, then 3 of 4
        assertThat(worker.get("overlap").asDouble()).isEqualTo(0.5);
        assertThat(worker.get("aCoversB").asDouble()).isEqualTo(1.0);
        // io only in the second: none of its hot paths is hot in the first; the first has none to cover
        assertThat(rows.get(1).get("aCoversB").asDouble()).isZero();
        assertThat(rows.get(1).get("bCoversA").asDouble()).isEqualTo(1.0);
        // all threads: the first's two hot paths are hot in the second, which has io's as a third
        assertThat(rows.get(0).get("aCoversB").asDouble()).isEqualTo(2.0 / 3);
        assertThat(rows.get(0).get("bCoversA").asDouble()).isEqualTo(1.0);
        var grew = root.get("grew");
        assertThat(grew.get(0).get("path").toString()).isEqualTo("[\"io-*\",\"app.Io.read\"]");
        assertThat(grew.get(0).get("shareA").asDouble()).isZero();
        assertThat(grew.get(0).get("shareB").asDouble()).isEqualTo(0.5);
        assertThat(grew.get(0).get("delta").asDouble()).isEqualTo(0.5);
        assertThat(grew).hasSize(2);
        var shrank = root.get("shrank");
        assertThat(shrank).hasSize(1);
        assertThat(shrank.get(0).get("path").toString()).isEqualTo("[\"worker-*\",\"app.Main.run\",\"app.Main.compute\"]");
        assertThat(shrank.get(0).get("delta").asDouble()).isEqualTo(0.125 - 0.75);
        assertThat(ProfileDiffReport.json(d, "a.jfr", "b.jfr", 1)).as("--top bounds both lists")
                .satisfies(j -> assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(j).get("grew")).hasSize(1));
    }
}
