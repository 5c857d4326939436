package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.report.JsonReport;
import dev.lockscope.report.TextReport;
import dev.lockscope.report.blame.BlameTextReport;
import dev.lockscope.report.html.HtmlReport;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

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

    /**
     * Reads the recording once and renders it.
     *
     * @param side    the stack side of {@link #collapsed} and {@link #pprof}; ignored by the others
     * @param groupBy the aspects of the owner-blame tree (text, json)
     * @param raw     keep AQS/LockSupport frames at the top of chains
     */
    public byte[] render(Path recording, ContentionOptions options, Side side, List<Aspect> groupBy, boolean raw)
            throws RecordingException {
        List<ReportSection> sections = sections(groupBy, raw);
        return render(ReportDocument.read(recording, options, sections), sections, side);
    }

    /** The same for an in-memory recording, owner blame grouped by its default aspects. */
    public byte[] render(LockRecording recording, ContentionOptions options, Side side) {
        List<ReportSection> sections = sections(Aspect.DEFAULT, false);
        return render(ReportDocument.read(recording, options, sections), sections, side);
    }

    /** The sections this format shows. */
    private List<ReportSection> sections(List<Aspect> groupBy, boolean raw) {
        OwnerBlameSection blame = new OwnerBlameSection(groupBy, raw);
        return this == json || this == text
                ? List.of(blame, new BottleGraphSection(), new VirtualThreadSection()) // no per-thread timeline in the JSON report
                : List.of(blame, new BottleGraphSection(), new ThreadTimeline(), new VirtualThreadSection());
    }

    private byte[] render(ReportDocument.Read read, List<ReportSection> sections, Side side) {
        ObjectNode doc = ReportDocument.build(read, sections);
        return switch (this) {
            case text -> utf8(TextReport.render(read.contention(), ReportDocument.findings(doc), null)
                    + System.lineSeparator() + BlameTextReport.render(((OwnerBlameSection) sections.get(0)).summary()));
            case json -> utf8(JsonReport.write(doc));
            case html -> utf8(HtmlReport.render(doc));
            case collapsed -> utf8(CollapsedStacks.render(doc, side));
            case pprof -> PprofProfile.render(doc, side);
        };
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
