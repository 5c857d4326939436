package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameAnalysis;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.report.blame.BlameJsonReport;

import java.util.List;

/**
 * Owner blame (issue 4) in the report document: {@code blame} (one entry per lock × waiter chain ×
 * owner chain), {@code tree} (grouped by the requested aspects), {@code ownerChainShares} and
 * {@code waits} (Object.wait / Condition.await, apart from contention).
 */
public final class OwnerBlameSection implements ReportSection {
    private static final List<String> MEMBERS = List.of("blame", "tree", "ownerChainShares", "waits");

    private final List<Aspect> groupBy;
    private final boolean raw;
    private final BlameAnalysis analysis = new BlameAnalysis();
    private BlameSummary summary;

    public OwnerBlameSection(List<Aspect> groupBy, boolean raw) {
        this.groupBy = List.copyOf(groupBy);
        this.raw = raw;
    }

    @Override
    public String member() {
        return "blame";
    }

    @Override
    public RecordingVisitor visitor() {
        return analysis;
    }

    @Override
    public JsonNode build(RecordingInfo recording, LockContention contention) {
        return BlameJsonReport.toJson(summary()).get("blame");
    }

    @Override
    public void contribute(ObjectNode doc, RecordingInfo recording, LockContention contention) {
        ObjectNode all = BlameJsonReport.toJson(summary());
        for (String m : MEMBERS) {
            doc.set(m, all.get(m));
        }
    }

    /** The summary of the recording this section was fed (computed once). */
    public BlameSummary summary() {
        if (summary == null) {
            summary = BlameSummary.of(analysis.result(), groupBy, raw);
        }
        return summary;
    }
}
