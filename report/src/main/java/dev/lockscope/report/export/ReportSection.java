package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.LockRecording;

/**
 * One top-level member of the report document (see {@link ReportDocument}) computed from the
 * recording model: {@code blame}, {@code bottleGraph}, {@code timeline}. Renderers read only the
 * document, so an analysis reaches every format (HTML, collapsed, pprof) by being a section.
 */
public interface ReportSection {
    /** The document member this section fills, e.g. {@code "blame"}. */
    String member();

    /** @return the member's value, or null to leave the member out (the HTML page then says it is missing) */
    JsonNode build(LockRecording recording, LockContention contention);

    /** Puts this section into the document; a section that fills several members overrides it. */
    default void contribute(com.fasterxml.jackson.databind.node.ObjectNode doc, LockRecording recording,
                            LockContention contention) {
        JsonNode value = build(recording, contention);
        if (value != null) {
            doc.set(member(), value);
        }
    }
}
