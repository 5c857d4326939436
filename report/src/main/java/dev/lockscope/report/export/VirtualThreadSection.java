package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.vthreads.PinningAnalysis;

/**
 * Pinning and carrier starvation of virtual threads ({@link PinningAnalysis}) in the report document:
 * member {@code virtualThreads} with {@code carriers}, {@code pinnedNanos}, {@code pinnedSites[]}
 * ({@code site}, {@code nanos}, {@code count}), {@code starvedNanos}, {@code starvedPeriods},
 * {@code findings[]} ({@code nanos}, {@code sentence}), which {@link ReportDocument} ranks among the
 * lock findings. Left out when no virtual thread was pinned.
 */
public final class VirtualThreadSection implements ReportSection {
    private final PinningAnalysis pinning = new PinningAnalysis();

    @Override
    public String member() {
        return "virtualThreads";
    }

    @Override
    public RecordingVisitor visitor() {
        return pinning;
    }

    @Override
    public JsonNode build(RecordingInfo recording, LockContention contention) {
        PinningAnalysis.Result r = pinning.result();
        if (r == null || r.sites().isEmpty()) {
            return null;
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("carriers", r.carriers());
        out.put("pinnedNanos", r.pinnedNanos());
        ArrayNode sites = out.putArray("pinnedSites");
        r.sites().forEach(s -> sites.addObject().put("site", s.site()).put("nanos", s.nanos()).put("count", s.count()));
        out.put("starvedNanos", r.starvedNanos());
        out.put("starvedPeriods", r.starved().size());
        out.put("starvationSweepCut", r.sweepCut());
        ArrayNode findings = out.putArray("findings");
        r.findings().forEach(f -> findings.addObject().put("nanos", f.nanos()).put("sentence", f.sentence()));
        return out;
    }
}
