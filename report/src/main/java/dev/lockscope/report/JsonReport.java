package dev.lockscope.report;

import dev.lockscope.analysis.vthreads.PinningAnalysis;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockSites;
import dev.lockscope.report.blame.BlameJsonReport;
import dev.lockscope.report.bottle.BottleJson;
import dev.lockscope.report.cpu.ThreadCpuReport;
import dev.lockscope.report.deep.DeepJson;
import dev.lockscope.analysis.blame.HandoffHold;
import dev.lockscope.core.LockId;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.rules.RuleResult;
import dev.lockscope.report.rules.WaitClasses;
import dev.lockscope.report.rules.WaitClassifier;
import dev.lockscope.report.whatif.WhatIfReport;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;

/**
 * The report as JSON, field names and order as documented in {@code docs/json-schema.md} (a
 * contract: scripts read it): the contention table, owner blame, the bottle graph when there is
 * one, the findings. Object members keep insertion order, so the output is stable.
 */
public final class JsonReport {
    /** Incremented when a field changes meaning or is removed; adding fields keeps the version. */
    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET); // write() may be given System.out

    private JsonReport() {
    }

    /** The whole report as a tree. */
    public static ObjectNode toJson(Report report) {
        ObjectNode root = table(report.contention());
        handoffHolds(root, report);
        waits(root, report);
        ObjectNode blame = BlameJsonReport.toJson(report.blame());
        for (String member : List.of("blame", "tree", "ownerChainShares", "waits")) {
            root.set(member, blame.get(member));
        }
        if (report.bottles() != null) {
            root.set("bottleGraph", BottleJson.fragment(report.bottles().whole()));
        }
        if (report.virtualThreads() != null) {
            root.set("virtualThreads", virtualThreads(report.virtualThreads()));
        }
        if (report.deep() != null) {
            root.set("deep", DeepJson.toJson(report.deep()));
        }
        if (report.cpuTimes() != null) {
            root.set("cpuTimes", ThreadCpuReport.json(report.cpuTimes()));
        }
        if (!report.warnings().isEmpty()) {
            ArrayNode warnings = root.putArray("warnings");
            report.warnings().forEach(warnings::add);
        }
        whatWouldHelp(root, report);
        ArrayNode findings = root.putArray("findings");
        report.findings().forEach(f -> findings.add(f.message()));
        ArrayNode rules = root.putArray("rules");
        report.rules().forEach(r -> rules.add(rule(r)));
        return root;
    }

    /**
     * Adds to each entry of {@code locks} the second hold-time estimate, {@code avgHoldFromHandoffsNanos}
     * (held from one hand-off to the next, see the blame analysis) and {@code handoffHolds} (how many
     * holds it averages), where hand-offs were seen; beside the J9 park-contention report's {@code avgHoldNanos}.
     */
    public static void handoffHolds(ObjectNode data, Report report) {
        for (com.fasterxml.jackson.databind.JsonNode n : data.withArray("locks")) {
            ObjectNode lock = (ObjectNode) n;
            HandoffHold h = null;
            for (HandoffHold candidate : report.blame().handoffHolds()) {
                LockId id = candidate.lock();
                if (id.kind().label().equals(lock.get("kind").asText()) && id.lockClass().equals(lock.get("className").asText())
                        && id.id().equals(lock.get("identityHash").asText())) {
                    h = candidate;
                }
            }
            if (h != null) {
                lock.put("avgHoldFromHandoffsNanos", Math.round(h.avgNanos()));
                lock.put("handoffHolds", h.holds());
            }
        }
    }

    /**
     * Pinning of virtual threads: {@code carriers}, {@code pinnedNanos}, {@code pinnedSites[]} ({@code site},
     * {@code nanos}, {@code count}), {@code starvedNanos}, {@code starvedPeriods}, {@code starvationSweepCut}.
     */
    static ObjectNode virtualThreads(PinningAnalysis.Result r) {
        ObjectNode out = MAPPER.createObjectNode();
        out.put("carriers", r.carriers());
        out.put("pinnedNanos", r.pinnedNanos());
        ArrayNode sites = out.putArray("pinnedSites");
        r.sites().forEach(s -> sites.addObject().put("site", s.site()).put("nanos", s.nanos()).put("count", s.count()));
        out.put("starvedNanos", r.starvedNanos());
        out.put("starvedPeriods", r.starved().size());
        out.put("starvationSweepCut", r.sweepCut());
        return out;
    }

    /**
     * Adds to {@code root} (made by {@link #table}) each lock's {@code waitClass} and {@code waitRule},
     * and {@code idlePools}: the JSON report and the HTML page's data carry the same.
     */
    public static void waits(ObjectNode root, Report report) {
        ArrayNode locks = (ArrayNode) root.get("locks");
        for (int i = 0; i < locks.size(); i++) {
            WaitClassifier.Verdict v = report.waits().of(i);
            ((ObjectNode) locks.get(i)).put("waitClass", v.waitClass().label()).put("waitRule", v.rule());
        }
        ArrayNode idle = root.putArray("idlePools");
        for (WaitClasses.IdlePool p : report.waits().idlePools()) {
            ObjectNode o = idle.addObject().put("pool", p.pool()).put("nanos", p.nanos()).put("waits", p.waits());
            p.rules().forEach(o.putArray("rules")::add);
        }
    }

    /**
     * Adds {@code whatWouldHelp} (predictions, greatest gain first) and {@code whatIfAssumptions}; and, in the report
     * of {@code whatif --measure}'s profiled run, {@code measured} (the experiment, each site's prediction beside it).
     */
    public static void whatWouldHelp(ObjectNode root, Report report) {
        root.set("whatWouldHelp", WhatIfReport.json(report.whatWouldHelp(), report.contention().rowLabels()));
        root.set("whatIfAssumptions", WhatIfReport.assumptions());
        if (!report.measured().isEmpty()) {
            root.set("measured", WhatIfReport.measuredJson(report.measured()));
        }
    }

    /** One rule's result: {@code rule, severity, score, message, subject, missingEvents}. */
    public static ObjectNode rule(RuleResult r) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("rule", r.rule());
        o.put("severity", r.severity().label());
        o.put("score", BigDecimal.valueOf(r.score()).setScale(1, RoundingMode.HALF_UP));
        o.put("message", r.message());
        o.put("subject", r.subject());
        ArrayNode missing = o.putArray("missingEvents");
        r.missingEvents().forEach(missing::add);
        return o;
    }

    /** The contention table's members: {@code schemaVersion, recording, options, locksBelowPrintThreshold, sampledParks, stackBudget, locks}. */
    public static ObjectNode table(LockContention contention) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schemaVersion", SCHEMA_VERSION);
        ObjectNode recording = root.putObject("recording");
        recording.put("path", contention.source().toString());
        recording.put("start", instant(contention.startNanos()));
        recording.put("startEpochNanos", contention.startNanos());
        recording.put("durationNanos", contention.durationNanos());
        ObjectNode options = root.putObject("options");
        options.put("collectionThreshold", contention.options().collectionThreshold());
        options.put("printThreshold", contention.options().printThreshold());
        options.put("byInstance", contention.options().byInstance());
        root.put("locksBelowPrintThreshold", contention.belowPrintThreshold());
        root.put("sampledParks", contention.sampledParks());
        ObjectNode budget = root.putObject("stackBudget");
        budget.put("perSecond", contention.stackBudget().perSecond());
        budget.put("parksDropped", contention.stackBudget().parksDropped());
        budget.put("parkWaitDroppedNanos", contention.stackBudget().parkNanosDropped());
        budget.put("unparksDropped", contention.stackBudget().unparksDropped());
        root.put("profilersOwnWaits", contention.profilersOwnWaits());
        if (!contention.parts().isEmpty()) {
            ArrayNode recordings = root.putArray("recordings");
            contention.parts().forEach(p -> recordings.addObject().put("path", p.source().toString())
                    .put("startEpochNanos", p.startNanos()).put("durationNanos", p.durationNanos()));
        }
        ArrayNode locks = root.putArray("locks");
        java.util.Map<LockMetrics, String> labels = dev.lockscope.core.LockLabels.of(contention.rows());
        for (LockMetrics m : contention.rows()) {
            ObjectNode lock = lock(m);
            lock.put("label", labels.get(m)); // the row's name in the text table and the findings
            if (!contention.parts().isEmpty()) {
                ArrayNode perRecording = lock.putArray("waitPerRecordingNanos");
                for (long nanos : contention.waitPerPart(m)) {
                    perRecording.add(nanos);
                }
            }
            locks.add(lock);
        }
        if (!contention.options().byInstance()) {
            // the objects the sites sum, in one line each: enough to find an outlier object
            ArrayNode instances = root.putArray("instances");
            for (LockMetrics m : contention.locks()) {
                instances.addObject().put("kind", m.kind().label()).put("className", m.className())
                        .put("identityHash", m.identityHash()).put("site", LockSites.siteOf(m).substring(LockSites.SITE_PREFIX.length()))
                        .put("totalWaitNanos", m.totalWaitNanos()).put("timesParked", m.timesParked());
            }
        }
        return root;
    }

    /** One entry of {@code locks}: the fifteen metrics of the J9 park-contention report §3.7 and the lock's identity. */
    public static ObjectNode lock(LockMetrics m) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("kind", m.kind().label());
        o.put("className", m.className());
        o.put("identityHash", m.identityHash());
        o.put("totalWaitNanos", m.totalWaitNanos());
        o.put("firstThread", m.firstThread());
        ArrayNode frames = o.putArray("firstFrames");
        m.firstFrames().forEach(frames::add);
        o.put("timesParked", m.timesParked());
        o.put("parkedNow", m.parkedNow());
        o.put("peakParked", m.peakParked());
        o.put("threadTimeNanos", m.threadTimeNanos());
        o.put("realTimeNanos", m.realTimeNanos());
        // Averages in whole nanoseconds: sub-nanosecond digits are noise, and integers read better.
        o.put("avgParkNanos", Math.round(m.avgParkNanos()));
        o.put("avgHoldNanos", Math.round(m.avgHoldNanos()));
        o.put("realTimeUtilPct", pct(m.realTimeUtilPct()));
        o.put("threadTimeUtilPct", pct(m.threadTimeUtilPct()));
        o.put("realLifeTimeUtilPct", pct(m.realLifeTimeUtilPct()));
        o.put("threadLifeTimeUtilPct", pct(m.threadLifeTimeUtilPct()));
        o.put("lifeTimeNanos", m.tally().lifeTimeNanos());
        o.put("totalExecutionNanos", m.totalExecutionNanos());
        o.put("site", (m.isSite() ? m.identityHash() : LockSites.siteOf(m)).substring(LockSites.SITE_PREFIX.length()));
        o.put("instances", m.instances());
        return o;
    }

    /** Writes the tree, indented, with a final newline; does not close {@code out}. */
    public static void write(ObjectNode report, Writer out) throws IOException {
        MAPPER.writeValue(out, report);
        out.write('\n');
        out.flush();
    }

    public static String render(Report report) {
        return write(toJson(report));
    }

    /** The tree as text, indented, with a final newline. */
    public static String write(ObjectNode report) {
        StringWriter out = new StringWriter();
        try {
            write(report, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    /** Percentages with four decimals, written plainly (no exponent). */
    private static BigDecimal pct(double pct) {
        return BigDecimal.valueOf(pct).setScale(4, RoundingMode.HALF_UP);
    }

    static String instant(long epochNanos) {
        return Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L))
                .toString();
    }
}
