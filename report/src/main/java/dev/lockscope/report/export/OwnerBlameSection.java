package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameAnalysis;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.model.LockRecording;
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
    public JsonNode build(LockRecording recording, LockContention contention) {
        return BlameJsonReport.toJson(summary(recording)).get("blame");
    }

    @Override
    public void contribute(ObjectNode doc, LockRecording recording, LockContention contention) {
        ObjectNode all = BlameJsonReport.toJson(summary(recording));
        for (String m : MEMBERS) {
            doc.set(m, all.get(m));
        }
    }

    /** The summary of the last recording this section saw (computed once per recording). */
    public BlameSummary summary(LockRecording recording) {
        if (summary == null) {
            summary = BlameSummary.of(BlameAnalysis.analyze(recording), groupBy, raw);
        }
        return summary;
    }
}
