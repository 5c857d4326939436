package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.report.JsonReport;
import dev.lockscope.report.TextReport;
import dev.lockscope.report.html.HtmlReport;

import java.nio.charset.StandardCharsets;

/** Every format {@code lockscope report} writes, each rendered from the analysis of one recording. */
public enum OutputFormat {
    /** the park-contention table and the top findings, at most 100 columns */
    text,
    /** the park-contention metrics, docs/json-schema.md */
    json,
    /** one self-contained page: docs/html-report.md */
    html,
    /** collapsed stacks for flamegraph.pl and speedscope */
    collapsed,
    /** gzipped pprof profile.proto */
    pprof;

    /** @param side the stack side of {@link #collapsed} and {@link #pprof}; ignored by the others */
    public byte[] render(LockRecording recording, LockContention contention, Side side) {
        if (this == json) {
            return utf8(JsonReport.render(contention));
        }
        ObjectNode doc = ReportDocument.build(recording, contention, ReportDocument.defaultSections());
        return switch (this) {
            case text -> utf8(TextReport.render(contention, ReportDocument.findings(doc), null));
            case html -> utf8(HtmlReport.render(doc));
            case collapsed -> utf8(CollapsedStacks.render(doc, side));
            case pprof -> PprofProfile.render(doc, side);
            case json -> throw new AssertionError("rendered above");
        };
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
