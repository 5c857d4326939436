package dev.lockscope.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.report.export.Recordings;
import dev.lockscope.report.model.BlameKeys;
import dev.lockscope.report.model.Report;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class HtmlReportTest {
    private final Report report = Recordings.report(Recordings.small());

    @Test
    void pageIsSelfContained() {
        String html = HtmlReport.render(report);
        assertThat(html).startsWith("<!doctype html>").doesNotContain("{{")
                .contains("window.lockscopeVendor", "d3-flame-graph 5.0.0 (Apache-2.0)");
        // nothing loaded from elsewhere: no external scripts, stylesheets, images or fonts
        assertThat(html).doesNotContainPattern("<script[^>]+src=").doesNotContainPattern("<link[^>]+href=")
                .doesNotContainPattern("src=\"https?:").doesNotContainPattern("url\\(\\s*['\"]?https?:")
                .doesNotContain("@import");
    }

    @Test
    void thePageCarriesOnlyWhatItsScriptReads() throws Exception {
        ObjectNode data = HtmlReport.data(report);
        String script;
        try (var in = HtmlReport.class.getResourceAsStream("report.js")) {
            script = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        List<String> members = new java.util.ArrayList<>();
        data.fieldNames().forEachRemaining(members::add);
        data.get("locks").get(0).fieldNames().forEachRemaining(members::add);
        data.get("recording").fieldNames().forEachRemaining(members::add);
        assertThat(members).contains("locks", "idlePools", "findings", "blame", "className", "avgHoldNanos", "waitClass")
                .doesNotContain("instances", "waitRule", "schemaVersion");
        assertThat(members).allSatisfy(m -> assertThat(script).as("report.js reads %s", m).contains("." + m));
        assertThat(data.get("idlePools").isArray()).isTrue();
        assertThat(HtmlReport.render(report)).contains("<div id=\"idle\" hidden>");
    }

    /**
     * The text table's notes on sampled short parks and on the events the stack budget refused are on the page too, in
     * the same words, and only when there are some.
     */
    @Test
    void samplingAndTheStackBudgetAreNotedUnderTheLockTable() throws Exception {
        assertThat(report.contention().sampledParks()).isZero();
        assertThat(HtmlReport.data(report).has("sampledParksNote")).isFalse();
        assertThat(HtmlReport.data(report).has("stackBudgetNote")).isFalse();
        var c = report.contention();
        var budget = new dev.lockscope.analysis.model.StackBudget(0, 100, 7, 3_000_000, 2, 1);
        Report sampled = new Report(new dev.lockscope.analysis.LockContention(c.source(), c.startNanos(), c.durationNanos(),
                c.options(), c.locks(), c.belowPrintThreshold(), c.sites(), c.siteOfLock(), c.parts(), 42, budget, 0),
                report.blame(), report.bottles(), report.timeline(), report.virtualThreads(), report.rules(), report.waits(),
                report.warnings(), report.profiles(), report.deep(), report.whatWouldHelp(), report.cpuTimes(), report.measured());
        assertThat(HtmlReport.data(sampled).get("sampledParksNote").asText())
                .isEqualTo(dev.lockscope.report.TextReport.sampledParksNote(42)).startsWith("short parks sampled by the agent (42 recorded parks");
        assertThat(HtmlReport.data(sampled).get("stackBudgetNote").asText())
                .isEqualTo(dev.lockscope.report.TextReport.stackBudgetNote(budget))
                .startsWith("the agent's stack budget (100 events with a call chain a second) refused 7 park events (3.0 ms of waiting)"
                        + " and 2 releaser's stacks");
        String script;
        try (var in = HtmlReport.class.getResourceAsStream("report.js")) {
            script = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertThat(script).contains("data.sampledParksNote", "data.stackBudgetNote");
    }

    @Test
    void embedsTheDataSoThatNamesCannotCloseItsScript() throws Exception {
        ObjectNode data = HtmlReport.data(report);
        ((ObjectNode) data.get("locks").get(0)).put("firstThread", "</script><script>alert(1)</script>");
        JsonNode embedded = embedded(HtmlReport.page(data, "t"));
        assertThat(embedded).isEqualTo(new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(data)));
        assertThat(embedded.at("/locks/0/firstThread").asText()).startsWith("</script>");
    }

    @Test
    void everyRowCarriesJavasKeyUnderEveryAspectWithEachStringOnce() throws Exception {
        JsonNode blame = embedded(HtmlReport.render(report)).get("blame");
        JsonNode strings = blame.get("strings");
        assertThat(blame.get("aspects")).extracting(JsonNode::asText)
                .containsExactly(java.util.Arrays.stream(Aspect.values()).map(Aspect::label).toArray(String[]::new));
        assertThat(blame.get("groupBy")).extracting(JsonNode::asText).containsExactly("lock", "owner-method");
        int width = Aspect.values().length + 4;
        JsonNode rows = blame.get("rows");
        assertThat(rows.size()).isEqualTo(width * report.blame().rows().size());
        for (int i = 0; i < report.blame().rows().size(); i++) {
            BlameRow row = report.blame().rows().get(i);
            for (Aspect a : Aspect.values()) {
                assertThat(strings.get(rows.get(i * width + a.ordinal()).asInt()).asText())
                        .isEqualTo(BlameKeys.key(row, a, false, report.contention().rowLabels()));
            }
            assertThat(rows.get(i * width + width - 2).asLong()).isEqualTo(row.nanos());
        }
        java.util.Set<String> distinct = new java.util.HashSet<>();
        strings.forEach(s -> distinct.add(s.asText()));
        assertThat(distinct).hasSize(strings.size());
    }

    private static JsonNode embedded(String html) throws Exception {
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"lockscope-data\">(.*?)</script>",
                Pattern.DOTALL).matcher(html);
        assertThat(m.find()).isTrue();
        return new ObjectMapper().readTree(m.group(1));
    }
}
