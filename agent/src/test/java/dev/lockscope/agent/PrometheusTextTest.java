package dev.lockscope.agent;

import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockSites;
import dev.lockscope.core.ParkTally;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The text exposition format 0.0.4 as written, and the live metrics' families, top locks and "other". */
class PrometheusTextTest {
    @Test
    void familiesSamplesAndEscaping() {
        String text = new PrometheusText()
                .family("x_seconds_total", "counter", "Help with a \\ backslash\nand a line feed.")
                .sample(1.5, "lock", "a\"b\\c\nd", "kind", "park")
                .sample(3)
                .family("y", "gauge", "plain")
                .sample(Double.NaN)
                .sample(Double.POSITIVE_INFINITY, "l", "")
                .sample(Double.NEGATIVE_INFINITY)
                .text();
        assertThat(text).isEqualTo("""
                # HELP x_seconds_total Help with a \\\\ backslash\\nand a line feed.
                # TYPE x_seconds_total counter
                x_seconds_total{lock="a\\"b\\\\c\\nd",kind="park"} 1.5
                x_seconds_total 3
                # HELP y plain
                # TYPE y gauge
                y NaN
                y{l=""} +Inf
                y -Inf
                """);
    }

    @Test
    void refusesBadNamesAndRepeatedFamilies() {
        assertThatThrownBy(() -> new PrometheusText().family("9lives", "gauge", "h")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PrometheusText().family("a-b", "gauge", "h")).isInstanceOf(IllegalArgumentException.class);
        PrometheusText p = new PrometheusText().family("a", "gauge", "h");
        assertThatThrownBy(() -> p.family("a", "gauge", "h")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new PrometheusText().sample(1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void valuesAsPrometheusReadsThem() {
        assertThat(PrometheusText.formatValue(0)).isEqualTo("0");
        assertThat(PrometheusText.formatValue(-7)).isEqualTo("-7");
        assertThat(PrometheusText.formatValue(0.064)).isEqualTo("0.064");
        assertThat(PrometheusText.formatValue(1.5e-7)).isEqualTo("1.5E-7");
        assertThat(PrometheusText.formatValue(3e20)).isEqualTo("3.0E20");
    }

    private static LockMetrics park(String cls, String hash, long parks, int now, long threadNanos, long realNanos) {
        return new LockMetrics(LockKind.PARK, cls, hash, "t", List.of(),
                ParkTally.of(0, parks, now, now, threadNanos, realNanos, 0, realNanos, true), 1_000_000_000L);
    }

    @Test
    void topLocksByWaitThenOtherWithTheRestSummed() {
        List<LockMetrics> locks = new ArrayList<>();
        for (int i = 0; i < LiveMetrics.TOP_LOCKS + 3; i++) {
            locks.add(park("java.util.concurrent.locks.ReentrantLock$NonfairSync", Integer.toHexString(100 + i), 10, 0,
                    (i + 1) * 1_000_000L, 500_000L));
        }
        locks.add(park("app.Gate", "ff", 5, 2, 900_000_000L, 640_000_000L));
        OwnerMethods owners = new OwnerMethods();
        owners.count("app.Gate@ff", "app.Store.save");
        owners.count("app.Gate@ff", "app.Store.save");
        owners.count("app.Gate@ff", "app.Store.load");
        owners.count("app.Gate@ff", "app.Store.load");
        owners.count("app.Gate@ff", "app.Store.load");
        owners.count("app.Gate@ff", "app.Store.scan");
        owners.count("app.Gate@ff", "app.Store.flush");

        LiveMetrics.Snapshot s = LiveMetrics.snapshot(locks, Map.of(), owners, 4, -1, 0, 7, 2, 1234);
        assertThat(s.top()).hasSize(LiveMetrics.TOP_LOCKS);
        LiveMetrics.Lock first = s.top().get(0);
        assertThat(first.name()).isEqualTo("Gate@ff");
        assertThat(first.waitersNow()).isEqualTo(2);
        assertThat(first.holdNanos()).isEqualTo(640_000_000.0 / 3); // real / (parks - parked now)
        assertThat(first.ownerMethods()).extracting(e -> e.getKey())
                .containsExactly("app.Store.load", "app.Store.save", "app.Store.scan"); // top 3; ties in first-seen order
        // the four least-waited locks of the 14 are "other": waits 1..4 ms
        assertThat(s.other().waitNanos()).isEqualTo((1 + 2 + 3 + 4) * 1_000_000L);
        assertThat(s.other().waits()).isEqualTo(40);

        String text = LiveMetrics.prometheus(s);
        assertThat(text).contains("lockscope_lock_wait_seconds_total{lock=\"Gate@ff\",kind=\"park\",class=\"app.Gate\"} 0.9\n");
        assertThat(text).contains("lockscope_lock_wait_seconds_total{lock=\"other\",kind=\"\",class=\"\"} 0.01\n");
        assertThat(text).contains("lockscope_lock_waiters{lock=\"Gate@ff\",kind=\"park\",class=\"app.Gate\"} 2\n");
        assertThat(text).contains("lockscope_lock_owner_method_share{lock=\"Gate@ff\",kind=\"park\",method=\"app.Store.load\"} "
                + (3.0 / 7) + "\n");
        assertThat(text).contains("lockscope_untracked_parks_total 4\n");
        assertThat(text).contains("lockscope_stack_budget_refused_total{event=\"park\"} 7\n")
                .contains("lockscope_stack_budget_refused_total{event=\"unpark\"} 2\n");
        assertThat(text).doesNotContain("lockscope_lock_hold_seconds{lock=\"other\"");
        assertThat(text).doesNotContain("pinned"); // not recorded: no family at all
        // every sample line belongs to the family declared last
        String family = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                family = line.split(" ")[2];
            } else if (!line.startsWith("#")) {
                assertThat(line).startsWith(family);
            }
        }
    }

    @Test
    void aSiteOfCollectedObjectsIsContendedForNoLongerThanTheUnionOfTheirWaits() {
        // the agent's row of a site's collected blockers sums their real-times: 3 objects waited for at once
        // for 2.5 s each read 7.5 s in a 3 s run; the site's union (the exit table's real-time) is 2.9 s
        String cls = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
        String site = LockSites.SITE_PREFIX + "app.LockTable.lockEntry:45";
        LockMetrics collected = new LockMetrics(LockKind.PARK, cls, site, "t", List.of(),
                ParkTally.of(0, 40, 0, 3, 9_000_000_000L, 7_500_000_000L, 0, 7_500_000_000L, true), 3_000_000_000L, 3);
        LockMetrics live = park(cls, "1f", 10, 0, 1_000_000_000L, 800_000_000L);
        Map<String, Long> unions = Map.of(LockSites.keyOf(collected), 2_900_000_000L,
                LockSites.keyOf(LockKind.PARK, cls, "at ?"), 500_000_000L); // the live object's own site: no bound on one object
        LiveMetrics.Snapshot s = LiveMetrics.snapshot(List.of(collected, live), unions, new OwnerMethods(), 0, -1, 0, 0, 0, 0);
        assertThat(s.top().get(0).name()).isEqualTo("ReentrantLock at LockTable.lockEntry:45 x3");
        assertThat(s.top().get(0).contendedNanos()).isEqualTo(2_900_000_000L);
        assertThat(s.top().get(0).holdNanos()).isEqualTo(2_900_000_000.0 / 40);
        assertThat(s.top().get(1).contendedNanos()).isEqualTo(800_000_000L);
        assertThat(LiveMetrics.prometheus(s)).contains("lockscope_lock_contended_seconds_total{lock=\"ReentrantLock at LockTable.lockEntry:45 x3"
                + "\",kind=\"park\",class=\"" + cls + "\"} 2.9\n");
    }

    @Test
    void labelValuesStayBoundedWhateverTheNumberOfLocks() {
        List<LockMetrics> locks = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            locks.add(park("C" + i, Integer.toHexString(i), 1, 0, i, i));
        }
        String text = LiveMetrics.prometheus(LiveMetrics.snapshot(locks, Map.of(), new OwnerMethods(), 0, 5_000_000_000L, 0, 0, 0, 0));
        long series = text.lines().filter(l -> l.startsWith("lockscope_lock_wait_seconds_total{")).count();
        assertThat(series).isEqualTo(LiveMetrics.TOP_LOCKS + 1);
        assertThat(text).contains("lockscope_virtual_thread_pinned_seconds_total 5\n");
    }
}
