package dev.lockscope.report.deep;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.deep.DeepResult;
import dev.lockscope.analysis.deep.LibraryLockAdvice;
import dev.lockscope.analysis.deep.LockBehaviour;
import dev.lockscope.analysis.model.DeepCounts;
import dev.lockscope.analysis.model.DeepInfo;
import dev.lockscope.analysis.model.DeepLock;
import dev.lockscope.analysis.model.DeepSite;
import dev.lockscope.core.HoldHistogram;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The report's {@code deep} member (docs/json-schema.md): deep mode's JLM statistics per lock object and
 * per site, their totals, the lock-behaviour figures and the probe cost. The HTML page reads the same tree.
 */
public final class DeepJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private DeepJson() {
    }

    public static ObjectNode toJson(DeepResult deep) {
        ObjectNode out = MAPPER.createObjectNode();
        out.put("durationNanos", deep.durationNanos());
        DeepInfo info = deep.info();
        if (info != null) {
            out.putObject("probes").put("selection", info.selection()).put("classesInstrumented", info.classes())
                    .put("sitesInstrumented", info.sites()).put("untrackedAcquisitions", info.untracked())
                    .put("probeNanosPerAcquisition", info.probeNanos()).put("holdInflationNanos", info.holdInflationNanos())
                    .put("probeFailures", info.probeFailures());
        }
        ArrayNode buckets = out.putArray("holdHistogramBuckets");
        for (int i = 0; i < HoldHistogram.BUCKETS; i++) {
            buckets.add(HoldHistogram.label(i));
        }
        counts(out.putObject("totals"), deep.totals(), deep.durationNanos());
        LockBehaviour b = deep.behaviour();
        ObjectNode behaviour = out.putObject("behaviour");
        behaviour.put("objectsLocked", b.objectsLocked()).put("objectsLockedByOthers", b.objectsLockedByOthers())
                .put("objectsWithWaits", b.objectsWithWaits())
                .put("firstRepetitionPct", pct(b.firstRepetitionPct()))
                .put("firstRepetitionNonRecursivePct", pct(b.firstRepetitionNonRecursivePct()))
                .put("reserveUntilSecondThreadHitPct", pct(b.reserveUntilSecondThreadHitPct()))
                .put("reserveForeverHitPct", pct(b.reserveForeverHitPct()))
                .put("sectionsOf10msOrMore", b.sectionsOf10msOrMore());
        ArrayNode sentences = behaviour.putArray("sentences");
        b.sentences().forEach(sentences::add);
        ArrayNode locks = out.putArray("locks");
        for (DeepLock l : deep.locks()) {
            ObjectNode row = locks.addObject().put("lockClass", l.lockClass())
                    .put("identityHash", Integer.toHexString(l.lockHash())).put("kind", l.kind());
            counts(row, l.counts(), deep.durationNanos());
            row.put("firstLocker", l.firstLocker()).put("firstSite", l.firstSite()).put("lockedByOthers", l.lockedByOthers())
                    .put("firstRunAll", l.firstRunAll()).put("firstRunNonRecursive", l.firstRunNonRecursive())
                    .put("firstLockerNonRecursive", l.firstLockerNonRecursive()).put("fatRuns", l.fatRuns())
                    .put("flatRuns", l.flatRuns());
        }
        ArrayNode advice = out.putArray("libraryLocks");
        for (LibraryLockAdvice a : deep.libraryLocks()) {
            DeepLock l = a.lock();
            double ratio = l.flatToFatRatio();
            ObjectNode row = advice.addObject().put("lockClass", l.lockClass()).put("identityHash", Integer.toHexString(l.lockHash()))
                    .put("kind", l.kind()).put("firstSite", l.firstSite())
                    .put("firstRepetitionPct", pct(100 * l.firstRepetitionShare()));
            if (Double.isInfinite(ratio)) {
                row.putNull("flatToFatRatio");
            } else {
                row.put("flatToFatRatio", pct(ratio));
            }
            row.put("recommendation", a.recommendation().lockClass).put("pays", a.pays())
                    .put("benchmark", a.recommendation().benchmarkRow).put("evidence", a.evidence()).put("sentence", a.sentence());
        }
        ArrayNode sites = out.putArray("sites");
        for (DeepSite s : deep.sites()) {
            counts(sites.addObject().put("site", s.site()).put("kind", s.kind()), s.counts(), deep.durationNanos());
        }
        return out;
    }

    private static void counts(ObjectNode row, DeepCounts c, long durationNanos) {
        row.put("gets", c.gets()).put("nonRecursive", c.nonRecursive()).put("slow", c.slow()).put("recursive", c.recursive())
                .put("missPct", pct(c.missPct())).put("utilPct", pct(c.utilPct(durationNanos)))
                .put("tryFailures", c.tryFailures()).put("waits", c.waits()).put("notifies", c.notifies())
                .put("sections", c.sections()).put("holdNanos", c.holdNanos()).put("avgHoldNanos", c.avgHoldNanos())
                .put("maxHoldNanos", c.maxHoldNanos()).put("blocked", c.blocked()).put("blockedPct", pct(c.blockedPct()))
                .put("timedSections", c.timedSections());
        ArrayNode histogram = row.putArray("holdHistogram");
        for (long n : c.holdHistogram()) {
            histogram.add(n);
        }
    }

    private static BigDecimal pct(double pct) {
        return BigDecimal.valueOf(pct).setScale(4, RoundingMode.HALF_UP);
    }
}
