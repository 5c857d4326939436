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
        DeepCounts c = new DeepCounts(10, 8, 2, 2, 1, 1, 1, 4, 400_000, 250_000, histogram);
        a.deepLock(new DeepLock(5, "com.example.Cache<K>", 0xabc, "monitor", c, "worker-1", "com.example.Cache.get:12",
                true, 3, 3, 6));
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
        assertThat(lock.get("missPct").decimalValue()).isEqualByComparingTo("25.0000");
        assertThat(lock.get("utilPct").decimalValue()).isEqualByComparingTo("20.0000");
        assertThat(lock.get("avgHoldNanos").asLong()).isEqualTo(100_000);
        assertThat(lock.get("identityHash").asText()).isEqualTo("abc");
        assertThat(deep.get("holdHistogramBuckets")).hasSize(8);
        assertThat(deep.get("probes").get("probeNanosPerAcquisition").asLong()).isEqualTo(41);
        assertThat(deep.get("behaviour").get("reserveForeverHitPct").decimalValue()).isEqualByComparingTo("60.0000");
        assertThat(deep.get("sites").get(0).get("site").asText()).isEqualTo("com.example.Cache.get:12");
    }

    @Test
    void textShowsTheSameRowsWithinTheTableWidth() {
        String text = DeepTextReport.render(result(), 10);
        assertThat(text).contains("deep mode: every acquisition in com.example.** (3 classes, 9 sites)")
                .contains("probe cost 41 ns per acquisition").contains("com.example.Cache<K>@abc")
                .contains("  25.00 ").contains("100.0 us").contains("lock behaviour:");
        assertThat(text.lines()).allMatch(l -> l.length() <= 100);
    }

    @Test
    void htmlEscapesNames() {
        String html = DeepHtml.fragment(result());
        assertThat(html).contains("com.example.Cache&lt;K&gt;@abc").doesNotContain("Cache<K>");
        assertThat(html).contains("60.00%");
    }
}
