package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.report.JsonReport;

import java.util.List;

/**
 * The one document every renderer reads: {@link JsonReport}'s tree ({@code recording},
 * {@code options}, {@code locks}) plus one member per {@link ReportSection}, plus {@code findings}
 * (the summary sentences of {@link TopFindings}, computed from the members before them).
 */
public final class ReportDocument {
    private ReportDocument() {
    }

    /** Every section, owner blame grouped by its default aspects (lock, then owner method). */
    public static List<ReportSection> defaultSections() {
        return sections(Aspect.DEFAULT, false);
    }

    /** Every section: owner blame grouped by {@code groupBy}, the bottle graph, the thread timeline. */
    public static List<ReportSection> sections(List<Aspect> groupBy, boolean raw) {
        return List.of(new OwnerBlameSection(groupBy, raw), new BottleGraphSection(), new ThreadTimeline());
    }

    public static ObjectNode build(LockRecording recording, LockContention contention, List<ReportSection> sections) {
        ObjectNode doc = JsonReport.toJson(contention);
        for (ReportSection section : sections) {
            section.contribute(doc, recording, contention);
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
