package dev.lockscope.report.deep;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockscope.analysis.deep.DeepAnalysis;
import dev.lockscope.analysis.deep.DeepResult;
import dev.lockscope.analysis.model.DeepCounts;
import dev.lockscope.analysis.model.DeepInfo;
import dev.lockscope.analysis.model.DeepLock;
import dev.lockscope.analysis.model.DeepSite;
import dev.lockscope.analysis.model.RecordingInfo;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The deep section in text, JSON and HTML: the same numbers, and names escaped in the page. */
class DeepReportTest {
    private static DeepResult result() {
        DeepAnalysis a = new DeepAnalysis();
        long[] histogram = {0, 0, 3, 1, 0, 0, 0, 0};
        DeepCounts c = new DeepCounts(10, 8, 2, 2, 1, 1, 1, 4, 400_000, 250_000, histogram, 1, 4);
        a.deepLock(new DeepLock(5, "com.example.Cache<K>", 0xabc, "monitor", c, "worker-1", "com.example.Cache.get:12",
                true, 3, 3, 6, new DeepLock.Sections(2, 3, 8, 14)));
        // one thread's counter: 5,000 acquisitions, all in the first repetition, never contended
        long[] fast = {5_000, 0, 0, 0, 0, 0, 0, 0};
        DeepCounts own = new DeepCounts(5_000, 5_000, 0, 0, 0, 0, 0, 5_000, 1_000_000, 900, fast, 0, 1_500);
        a.deepLock(new DeepLock(5, "com.example.Counter", 0xdef, "monitor", own, "main", "com.example.Counter.inc:3",
                false, 5_000, 5_000, 5_000, new DeepLock.Sections(0, 1, 0, 10_000)));
        a.deepSite(new DeepSite(5, "com.example.Cache.get:12", "monitorenter", c));
        a.deepInfo(new DeepInfo(5, "com.example.**", 3, 9, 0, 41, 18, 0));
        a.finish(new RecordingInfo(Path.of("r.jfr"), 0, 2_000_000L, Map.of()));
        return a.result();
    }

    @Test
    void jsonCarriesTheJlmStatisticsAndBehaviour() {
        JsonNode deep = DeepJson.toJson(result());
        JsonNode lock = deep.get("locks").get(0);
        assertThat(lock.get("gets").asLong()).isEqualTo(10);
        assertThat(lock.get("slow").asLong()).isEqualTo(2);
        assertThat(lock.get("blocked").asLong()).isEqualTo(1);
        assertThat(lock.get("blockedPct").decimalValue()).isEqualByComparingTo("12.5000");
        assertThat(lock.get("missPct").decimalValue()).isEqualByComparingTo("25.0000");
        assertThat(lock.get("utilPct").decimalValue()).isEqualByComparingTo("20.0000");
        assertThat(lock.get("avgHoldNanos").asLong()).isEqualTo(100_000);
        assertThat(lock.get("identityHash").asText()).isEqualTo("abc");
        assertThat(deep.get("holdHistogramBuckets")).hasSize(8);
        assertThat(deep.get("probes").get("probeNanosPerAcquisition").asLong()).isEqualTo(41);
        JsonNode advice = deep.get("libraryLocks");
        assertThat(advice).hasSize(1);
        assertThat(advice.get(0).get("lockClass").asText()).isEqualTo("com.example.Counter");
        assertThat(advice.get(0).get("recommendation").asText()).isEqualTo("ReservationLock");
        assertThat(advice.get(0).get("pays").asBoolean()).isTrue();
        assertThat(advice.get(0).get("flatToFatRatio").isNull()).isTrue();
        assertThat(advice.get(0).get("evidence").asText()).contains("1.8 ns against synchronized 16.0 ns");
        assertThat(deep.get("sites").get(0).get("site").asText()).isEqualTo("com.example.Cache.get:12");
    }

    @Test
    void textShowsTheSameRowsWithinTheTableWidth() {
        String text = DeepTextReport.render(result(), 10);
        assertThat(text).contains("deep mode: every acquisition in com.example.** (3 classes, 9 sites)")
                .contains("probe cost 41 ns per acquisition").contains("com.example.Cache<K>@abc")
                .contains("  25.00 ").contains("100.0 us").contains("lock behaviour:")
                .contains("hold times (sampled): <1us 5000 ")
                .contains("library locks (lockscope-locks):").contains("Use ReservationLock: 100.0% of its 5,000 acquisitions");
        assertThat(text.lines()).allMatch(l -> l.length() <= 100);
    }

    @Test
    void htmlEscapesNames() {
        String html = DeepHtml.fragment(result());
        assertThat(html).contains("com.example.Cache&lt;K&gt;@abc").doesNotContain("Cache<K>");
        assertThat(html).contains("<th>blocked</th>").contains("<h3>Library locks</h3>").contains("<td>ReservationLock</td>");
        // Table 4.3: the Cache monitor (waits and notifies: the wait group), 2 fat sections of 8 operations, 3 flat of 14
        assertThat(html).contains("<th>operations per fat section</th>")
                .contains("<tr><td>wait</td><td>1</td><td>22</td><td>2.00</td><td>4.00</td><td>4.67</td></tr>");
    }

    @Test
    void jsonCarriesTheContentionTable() {
        JsonNode group = DeepJson.toJson(result()).get("behaviour").get("contention").get(0);
        assertThat(group.get("group").asText()).isEqualTo("wait");
        assertThat(group.get("syncOps").asLong()).isEqualTo(22);
        assertThat(group.get("opsPerFlatSection").decimalValue()).isEqualByComparingTo("4.6667");
    }
}
