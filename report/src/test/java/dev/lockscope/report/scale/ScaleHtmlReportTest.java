package dev.lockscope.report.scale;

import org.junit.jupiter.api.Test;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class ScaleHtmlReportTest {
    @Test
    void selfContainedPageWithCurvesAndLinks() throws Exception {
        String html = ScaleHtmlReport.render(SweepFixture.result(), SweepFixture.context());
        assertThat(html).startsWith("<!DOCTYPE html>").doesNotContain("<script");
        assertThat(html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "")).as("nothing fetched").doesNotContain("http");
        assertThat(html).contains("<a href=\"t4-c2.jfr\"", "&larr; knee", "failed: exit code 3",
                "held by application code <code>Report.render</code>", "&larr; start here", "stroke-dasharray");
        Matcher svg = Pattern.compile("<svg .*?</svg>", Pattern.DOTALL).matcher(html);
        int charts = 0;
        while (svg.find()) {
            charts++;
            DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(svg.group().getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(charts).as("speedup curve and lock growth").isEqualTo(2);
    }
}
