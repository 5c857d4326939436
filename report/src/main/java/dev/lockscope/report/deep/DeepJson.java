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
                .put("firstRepetitionPct", rounded(b.firstRepetitionPct()))
                .put("firstRepetitionNonRecursivePct", rounded(b.firstRepetitionNonRecursivePct()))
                .put("reserveUntilSecondThreadHitPct", rounded(b.reserveUntilSecondThreadHitPct()))
                .put("reserveForeverHitPct", rounded(b.reserveForeverHitPct()))
                .put("sectionsOf10msOrMore", b.sectionsOf10msOrMore());
        ArrayNode contention = behaviour.putArray("contention");
        for (LockBehaviour.ContentionGroup g : b.contention()) {
            contention.addObject().put("group", g.group()).put("heavyObjects", g.heavyObjects()).put("syncOps", g.syncOps())
                    .put("fatSections", g.fatSections()).put("flatSections", g.flatSections())
                    .put("fatSectionsPerObject", rounded(g.fatSectionsPerObject()))
                    .put("opsPerFatSection", rounded(g.opsPerFatSection())).put("opsPerFlatSection", rounded(g.opsPerFlatSection()));
        }
        ArrayNode sentences = behaviour.putArray("sentences");
        b.sentences().forEach(sentences::add);
        ArrayNode locks = out.putArray("locks");
        for (DeepLock l : deep.locks()) {
            ObjectNode row = locks.addObject().put("lockClass", l.lockClass())
                    .put("identityHash", Integer.toHexString(l.lockHash())).put("kind", l.kind());
            counts(row, l.counts(), deep.durationNanos());
            row.put("firstLocker", l.firstLocker()).put("firstSite", l.firstSite()).put("lockedByOthers", l.lockedByOthers())
                    .put("firstRunAll", l.firstRunAll()).put("firstRunNonRecursive", l.firstRunNonRecursive())
                    .put("firstLockerNonRecursive", l.firstLockerNonRecursive()).put("fatSections", l.sections().fat())
                    .put("flatSections", l.sections().flat()).put("fatOps", l.sections().fatOps())
                    .put("flatOps", l.sections().flatOps());
        }
        ArrayNode advice = out.putArray("libraryLocks");
        for (LibraryLockAdvice a : deep.libraryLocks()) {
            DeepLock l = a.lock();
            double ratio = l.flatToFatRatio();
            ObjectNode row = advice.addObject().put("lockClass", l.lockClass()).put("identityHash", Integer.toHexString(l.lockHash()))
                    .put("kind", l.kind()).put("firstSite", l.firstSite())
                    .put("firstRepetitionPct", rounded(100 * l.firstRepetitionShare()));
            if (Double.isInfinite(ratio)) {
                row.putNull("flatToFatRatio");
            } else {
                row.put("flatToFatRatio", rounded(ratio));
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
                .put("missPct", rounded(c.missPct())).put("utilPct", rounded(c.utilPct(durationNanos)))
                .put("tryFailures", c.tryFailures()).put("waits", c.waits()).put("notifies", c.notifies())
                .put("sections", c.sections()).put("holdNanos", c.holdNanos()).put("avgHoldNanos", c.avgHoldNanos())
                .put("maxHoldNanos", c.maxHoldNanos()).put("blocked", c.blocked()).put("blockedPct", rounded(c.blockedPct()))
                .put("timedSections", c.timedSections());
        ArrayNode histogram = row.putArray("holdHistogram");
        for (long n : c.holdHistogram()) {
            histogram.add(n);
        }
    }

    private static BigDecimal rounded(double value) {
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_UP);
    }
}
