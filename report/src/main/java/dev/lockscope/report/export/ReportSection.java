package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;

/**
 * One top-level member of the report document (see {@link ReportDocument}): {@code blame},
 * {@code bottleGraph}, {@code timeline}. A section is fed by the one pass over the recording (through
 * its {@link #visitor()}, which keeps bounded state) and builds its member afterwards. Renderers read
 * only the document, so an analysis reaches every format (HTML, collapsed, pprof) by being a section.
 */
public interface ReportSection {
    /** The document member this section fills, e.g. {@code "blame"}. */
    String member();

    /** What the pass over the recording feeds; a section that reads nothing from it keeps the default. */
    default RecordingVisitor visitor() {
        return new RecordingVisitor() {
        };
    }

    /**
     * Called once the recording has been read.
     *
     * @return the member's value, or null to leave the member out (the HTML page then says it is missing)
     */
    JsonNode build(RecordingInfo recording, LockContention contention);

    /** Puts this section into the document; a section that fills several members overrides it. */
    default void contribute(ObjectNode doc, RecordingInfo recording, LockContention contention) {
        JsonNode value = build(recording, contention);
        if (value != null) {
            doc.set(member(), value);
        }
    }
}
