package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.LockContentionAnalysis;
import dev.lockscope.analysis.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.report.JsonReport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one document every renderer reads: {@link JsonReport}'s tree ({@code recording},
 * {@code options}, {@code locks}) plus one member per {@link ReportSection}, plus {@code findings}
 * (the summary sentences of {@link TopFindings}, computed from the members before them).
 */
public final class ReportDocument {
    private ReportDocument() {
    }

    /** A recording read once by the contention analysis and the report sections. */
    public record Read(RecordingInfo recording, LockContention contention) {
    }

    /** Every section, owner blame grouped by its default aspects (lock, then owner method). */
    public static List<ReportSection> defaultSections() {
        return sections(Aspect.DEFAULT, false);
    }

    /** Every section: owner blame grouped by {@code groupBy}, the bottle graph, the thread timeline. */
    public static List<ReportSection> sections(List<Aspect> groupBy, boolean raw) {
        return List.of(new OwnerBlameSection(groupBy, raw), new BottleGraphSection(), new ThreadTimeline());
    }

    /** Reads the recording once, feeding the contention table and every section. */
    public static Read read(Path recording, ContentionOptions options, List<ReportSection> sections)
            throws RecordingException {
        LockContentionAnalysis contention = new LockContentionAnalysis(options);
        RecordingInfo info = RecordingReader.read(recording, visitors(contention, sections));
        info.warnings().forEach(w -> System.err.println("lockscope: warning: " + w));
        return new Read(info, contention.result());
    }

    /** The same for an in-memory recording (tests, synthetic inputs). */
    public static Read read(LockRecording recording, ContentionOptions options, List<ReportSection> sections) {
        LockContentionAnalysis contention = new LockContentionAnalysis(options);
        RecordingInfo info = recording.replay(visitors(contention, sections));
        return new Read(info, contention.result());
    }

    private static RecordingVisitor[] visitors(LockContentionAnalysis contention, List<ReportSection> sections) {
        List<RecordingVisitor> all = new ArrayList<>();
        all.add(contention);
        sections.forEach(s -> all.add(s.visitor()));
        return all.toArray(RecordingVisitor[]::new);
    }

    /** The document of sections that have been fed the recording. */
    public static ObjectNode build(Read read, List<ReportSection> sections) {
        ObjectNode doc = JsonReport.toJson(read.contention());
        for (ReportSection section : sections) {
            section.contribute(doc, read.recording(), read.contention());
        }
        ArrayNode findings = doc.putArray("findings");
        TopFindings.of(doc).forEach(findings::add);
        return doc;
    }

    /** The summary sentences of a document built by {@link #build}. */
    public static List<String> findings(ObjectNode doc) {
        return doc.path("findings").valueStream().map(JsonNode::asText).toList();
    }
}
