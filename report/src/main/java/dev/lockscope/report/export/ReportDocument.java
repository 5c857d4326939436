package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
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

    /**
     * The sections lockscope computes today. Owner blame (issue 4) and the bottle graph (issue 5)
     * plug in here: replace {@link WaiterOnlyBlame} by the owner-blame section ({@code "blame"})
     * and add the bottle-graph section ({@code "bottleGraph"}).
     */
    public static List<ReportSection> defaultSections() {
        return List.of(new WaiterOnlyBlame(), new ThreadTimeline());
    }

    public static ObjectNode build(LockRecording recording, LockContention contention, List<ReportSection> sections) {
        ObjectNode doc = JsonReport.toJson(contention);
        for (ReportSection section : sections) {
            JsonNode value = section.build(recording, contention);
            if (value != null) {
                doc.set(section.member(), value);
            }
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
