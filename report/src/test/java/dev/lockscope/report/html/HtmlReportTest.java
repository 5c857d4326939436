package dev.lockscope.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.report.export.Recordings;
import dev.lockscope.report.export.ReportDocument;
import java.util.List;
import dev.lockscope.report.export.WaiterOnlyBlame;
import dev.lockscope.report.export.ThreadTimeline;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class HtmlReportTest {
    private final LockRecording recording = Recordings.small();
    private final ObjectNode doc = Recordings.document(recording, List.of(new WaiterOnlyBlame(), new ThreadTimeline()));

    @Test
    void pageIsSelfContained() {
        String html = HtmlReport.render(doc);
        assertThat(html).startsWith("<!doctype html>").doesNotContain("{{")
                .contains("window.lockscopeVendor", "d3-flame-graph 5.0.0 (Apache-2.0)");
        // nothing loaded from elsewhere: no external scripts, stylesheets, images or fonts
        assertThat(html).doesNotContainPattern("<script[^>]+src=").doesNotContainPattern("<link[^>]+href=")
                .doesNotContainPattern("src=\"https?:").doesNotContainPattern("url\\(\\s*['\"]?https?:")
                .doesNotContain("@import");
    }

    @Test
    void embedsTheDocumentSoThatNamesCannotCloseItsScript() throws Exception {
        ((ObjectNode) doc.get("locks").get(0)).put("firstThread", "</script><script>alert(1)</script>");
        String html = HtmlReport.render(doc);
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"lockscope-data\">(.*?)</script>",
                Pattern.DOTALL).matcher(html);
        assertThat(m.find()).isTrue();
        ObjectMapper mapper = new ObjectMapper();
        JsonNode embedded = mapper.readTree(m.group(1));
        ObjectNode expected = (ObjectNode) mapper.readTree(mapper.writeValueAsString(doc));
        JsonNode blame = expected.remove("blame");
        assertThat(embedded.get("blamePacked").get("entries").size()).isEqualTo(blame.size() * BlamePacking.FIELDS.size());
        ((ObjectNode) embedded).remove("blamePacked");
        assertThat(embedded.equals(expected)).isTrue();
        assertThat(embedded.at("/locks/0/firstThread").asText()).startsWith("</script>");
    }
}
