package dev.lockscope.report.export;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.report.JsonReport;
import dev.lockscope.report.TextReport;
import dev.lockscope.report.html.HtmlReport;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;
import dev.lockscope.report.rules.WaitClassifier;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** Every format {@code lockscope report} writes: sibling renderers of one {@link Report}. */
public enum OutputFormat {
    /** the park-contention table, the findings and the blame tree, at most 100 columns */
    text,
    /** the whole report, docs/json-schema.md */
    json,
    /** one self-contained page: docs/html-report.md */
    html,
    /** collapsed stacks for flamegraph.pl and speedscope */
    collapsed,
    /** gzipped pprof profile.proto */
    pprof;

    /** The report in this format; {@code top} cuts each section of the text format to its first N rows. */
    public byte[] render(Report report, Side side, int top) {
        return this == text ? utf8(TextReport.render(report, null, top)) : render(report, side);
    }

    /** Only the page shows the per-thread timeline, so only it pays for building one. */
    public boolean needsTimeline() {
        return this == html;
    }

    public byte[] render(Report report, Side side) {
        return switch (this) {
            case text -> utf8(TextReport.render(report, null));
            case json -> utf8(JsonReport.render(report));
            case html -> utf8(HtmlReport.render(report));
            case collapsed -> utf8(CollapsedStacks.render(report.blame(), side));
            case pprof -> PprofProfile.render(report.contention(), report.blame(), side);
        };
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
