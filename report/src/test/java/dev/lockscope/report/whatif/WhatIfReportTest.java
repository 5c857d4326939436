package dev.lockscope.report.whatif;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.whatif.HoldCeiling;
import dev.lockscope.analysis.whatif.Measured;
import dev.lockscope.report.JsonReport;
import dev.lockscope.report.TextReport;
import dev.lockscope.report.export.Recordings;
import dev.lockscope.report.html.HtmlReport;
import dev.lockscope.report.model.Report;
import dev.lockscope.analysis.whatif.WhatIf;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WhatIfReportTest {
    private static final LockId BOTTLENECK = LockId.blocker("java.util.concurrent.locks.ReentrantLock$NonfairSync", 0x3765a5b6);
    private static final LockId OTHER = LockId.monitor("java.lang.Object", 0x7f00);
    private static final WhatIf.Prediction HALVED = new WhatIf.Prediction(BOTTLENECK, null, 0.5, false, 94.06, 91.2,
            96.04, 4, BOTTLENECK, OTHER, 62.4, 1234, 98.0, 0, 8_000_000_000L, false, false, null, 94.06);
    private static final WhatIf.Prediction LITTLE = new WhatIf.Prediction(OTHER, null, 0.5, false, 0.3, -1, 2, 2,
            BOTTLENECK, BOTTLENECK, 99, 12, 40, 0, 8_000_000_000L, false, false, null, 0.3);

    @Test
    void theSectionRanksOnlyTrustworthyPredictionsAndCountsTheOthers() {
        String text = WhatIfReport.section(List.of(HALVED, LITTLE), 10, false);

        assertThat(text).startsWith("\nwhat would help: each lock's holds 0.5× as long in a replay of the recording");
        assertThat(text).contains("+94.1% [+91.2%, +96.0%]    high   ").doesNotContain("+0.3%")
                .contains("(1 more of low confidence, no advice: lockscope whatif lists them)");
        assertThat(text.lines()).allMatch(l -> l.length() <= 100);
        assertThat(WhatIfReport.section(List.of(HALVED, HALVED), 1, false)).contains("(1 more locks, --top)");
        assertThat(WhatIfReport.section(List.of(), 10, false)).isEmpty();
    }

    @Test
    void whenEveryPredictionIsLowTheSectionSaysNoneIsTrustworthy() {
        String text = WhatIfReport.section(List.of(LITTLE, LITTLE), 10, false);

        assertThat(text).contains("no prediction is trustworthy here: all 2 have low confidence").doesNotContain("+0.3%");
        assertThat(text.lines()).allMatch(l -> l.length() <= 100);
        // lockscope whatif lists them apart, under a heading that says they are no advice
        assertThat(WhatIfReport.section(List.of(HALVED, LITTLE), 10, true))
                .contains("(1 more of low confidence, no advice: below)")
                .contains("low confidence, no advice").containsPattern("(?s)low confidence, no advice.*\\+0\\.3% \\[-1\\.0%, \\+2\\.0%\\] +low ");
    }

    @Test
    void oneAnswerStatesItsAssumptions() {
        String text = WhatIfReport.text(HALVED);

        assertThat(text).startsWith("what if the " + BOTTLENECK.label() + "'s holds took 0.5× as long\n")
                .contains("predicted throughput change: +94.1%  (confidence high)")
                .contains("waited for most after the change: java.lang.Object@7f00 (62% of the replayed lock wait)")
                .contains("assumptions:\n  - " + WhatIf.ASSUMPTIONS.get(0));
        assertThat(WhatIfReport.text(WhatIf.remove(new dev.lockscope.analysis.whatif.LockTrace(List.of(OTHER), List.of(),
                List.of(), 0, 0, false), OTHER))).startsWith("what if java.lang.Object@7f00 excluded nobody");
    }

    @Test
    void aRemovalSaysWhatBoundsItFromBelowOrHowToSeeIt() {
        HoldCeiling table = new HoldCeiling(new LockId(dev.lockscope.core.LockKind.MONITOR, "java.util.Hashtable", "503f1c5e"),
                "demo.TwoLayerRequests.lockscope$lookupTemplate$computeIfAbsent:72", 47.2);
        WhatIf.Prediction unseen = removal(518, 518, false, null, OTHER);
        WhatIf.Prediction bounded = removal(table.maxChangePct(), 518, true, table, table.lock());
        WhatIf.Prediction loose = removal(80, 80, true, table, OTHER);

        assertThat(WhatIfReport.text(unseen)).contains("a lock taken only while this one is held (a lock below it) is never "
                + "waited for").contains("To see it: lockscope record --deep 'your.package.**'");
        assertThat(WhatIfReport.text(bounded)).contains("predicted throughput change: +111.9%")
                .contains("waited for most after the change: java.util.Hashtable@503f1c5e (the lock below, from deep mode's holds)")
                .contains("bounded by the lock below, java.util.Hashtable@503f1c5e (held 47.2% of the run")
                .contains("predicted +518.0%").doesNotContain("To see it");
        assertThat(WhatIfReport.text(loose)).contains("allows up to +111.9%: not reached");
        assertThat(WhatIfReport.text(removal(30, 30, true, null, OTHER))).contains("deep mode timed no other lock");
        JsonNode json = WhatIfReport.json(bounded);
        assertThat(json.get("bounded").booleanValue()).isTrue();
        assertThat(json.get("ceiling").get("lock").textValue()).isEqualTo("java.util.Hashtable@503f1c5e");
        assertThat(json.get("replayChangePct").decimalValue()).isEqualByComparingTo("518");
    }

    private static WhatIf.Prediction removal(double change, double replay, boolean checked, HoldCeiling ceiling, LockId next) {
        return new WhatIf.Prediction(BOTTLENECK, null, 1, true, change, change, change, 4, BOTTLENECK, next, 50, 1000,
                95, 0, 6_000_000_000L, false, checked, ceiling, replay);
    }

    @Test
    void theExperimentStatesEachSitesChangeWithItsIntervalAndRefusesWhatItCannotMean() {
        String text = WhatIfReport.measuredText(List.of(LOCK3, BROKEN, REFUSED, LOCK1));

        assertThat(text).startsWith("measured: each site's holds lengthened")
                .contains("  dev.lockscope.demo.LargeCriticalSection.juc3:73\n"
                        + "    mean hold 68.00 ms (held 99.0% of the time in use), each release delayed 34.00 ms: holds 1.50× as long\n"
                        + "    throughput -31.0% [-32.0%, -30.0%] in 3 delayed runs: resolved\n"
                        + "    holds halved: +88.6% (sensitivity 0.92)\n    the replay, holds halved: +94.1% high\n"
                        + "    the replay, holds 1.50× as long: -27.9% high, 10% from the measured change\n")
                .contains("    throughput -99.8% in delayed run 1, near zero: the delay broke the workload\n"
                        + "    holds halved: not extrapolated: the delay broke the workload\n")
                .contains("    holds halved: refused (2^s - 1): +49.6% is more than Amdahl's bound +5.3% for holds 0.5× as "
                        + "long held 10.0% of the time")
                .contains("    throughput +1.0% [-3.0%, +2.0%] in 3 delayed runs: could not be resolved (the interval is "
                        + "wider than the change)\n    holds halved: not extrapolated: could not be resolved\n    the replay, holds halved: -\n");
        assertThat(text).doesNotContain("NaN").doesNotContain("Infinity");
        JsonNode json = WhatIfReport.measuredJson(List.of(LOCK3, BROKEN, REFUSED)).get(0);
        assertThat(json.get("changePct").decimalValue()).isEqualByComparingTo("-31.00");
        assertThat(json.get("lowPct").decimalValue()).isEqualByComparingTo("-32.00");
        assertThat(json.get("outcome").textValue()).isEqualTo("resolved");
        assertThat(json.get("halvingPct").decimalValue()).isEqualByComparingTo("88.58");
        assertThat(json.get("halvingRefused").isNull()).isTrue();
        assertThat(json.get("predicted").get("changePct").decimalValue()).isEqualByComparingTo("94.06");
        assertThat(json.get("lengthenedBy").decimalValue()).isEqualByComparingTo("1.5");
        assertThat(json.get("predictedLengthened").get("changePct").decimalValue()).isEqualByComparingTo("-27.9");
        // (-27.9 - -31.0) / 31.0: the replay under the measured slow-down by a tenth of it
        assertThat(json.get("predictedLengthened").get("errorPct").decimalValue()).isEqualByComparingTo("10.0");
        assertThat(WhatIfReport.measuredJson(List.of(LOCK1)).get(0).get("predictedLengthened").isNull()).isTrue();
        // a slow-down beyond what the longer holds cost by themselves checks nothing of the replay
        Measured handOffs = new Measured(REFUSED.site(), 3_600, 0.3, 1.5, 1_800, List.of(-69.6, -73.3, -62.8),
                Measured.Outcome.RESOLVED, null, LONGER);
        assertThat(WhatIfReport.measuredText(List.of(handOffs))).contains("    the replay, holds 1.50× as long: -27.9% high; not "
                + "checked: the measured -69.6% is more than holds 1.50× as long cost by themselves even at this lock's pace alone (-33.3%)");
        JsonNode unchecked = WhatIfReport.measuredJson(List.of(handOffs)).get(0).get("predictedLengthened");
        assertThat(unchecked.get("errorPct").isNull()).isTrue();
        assertThat(unchecked.get("notChecked").textValue()).startsWith("the measured -69.6%");
        JsonNode broken = WhatIfReport.measuredJson(List.of(BROKEN)).get(0);
        assertThat(broken.get("outcome").textValue()).isEqualTo("the delay broke the workload");
        assertThat(broken.get("halvingPct").isNull()).isTrue();
        assertThat(broken.get("sensitivity").isNull()).isTrue();
        JsonNode refused = WhatIfReport.measuredJson(List.of(REFUSED)).get(0);
        assertThat(refused.get("halvingPct").isNull()).isTrue();
        assertThat(refused.get("halvingRefused").textValue()).contains("Amdahl's bound +5.3%");
        assertThat(WhatIfReport.measuredJson(List.of(LOCK1)).get(0).get("predicted").isNull()).isTrue();
        // beside a site held 10% of the time, the replay's +94.1% for halving its holds is beyond Amdahl's +5.3%
        Measured replayed = new Measured(REFUSED.site(), 5_780, 0.1, 1.5, 2_890, List.of(-2.0, -2.5, -2.2),
                Measured.Outcome.RESOLVED, HALVED, null);
        assertThat(WhatIfReport.measuredText(List.of(replayed))).contains("    the replay, holds halved: refused: +94.1% is "
                + "more than Amdahl's bound +5.3% for holds 0.5× as long held 10.0% of the time\n");
        JsonNode predicted = WhatIfReport.measuredJson(List.of(replayed)).get(0).get("predicted");
        assertThat(predicted.get("changePct").isNull()).isTrue();
        assertThat(predicted.get("refused").textValue()).contains("Amdahl's bound +5.3%");
    }

    @Test
    void aReplayPredictionBeyondAmdahlsBoundIsRefusedInEveryFormat() {
        WhatIf.Prediction impossible = new WhatIf.Prediction(BOTTLENECK, null, 0.5, false, 4125510959.3, 91.2,
                96.04, 4, BOTTLENECK, OTHER, 62.4, 1234, 98.0, 0, 8_000_000_000L, false, false, null, 4125510959.3);

        assertThat(WhatIfReport.text(impossible)).contains("predicted throughput change: refused: +4125510959.3% is more "
                + "than Amdahl's bound +100.0% for holds 0.5× as long (the lock held all the time)").doesNotContain("+4125510959.3%  (");
        assertThat(WhatIfReport.section(List.of(impossible), 10, true)).contains("  refused ");
        JsonNode json = WhatIfReport.json(impossible);
        assertThat(json.get("changePct").isNull()).isTrue();
        assertThat(json.get("refused").textValue()).contains("Amdahl's bound +100.0%");
        assertThat(WhatIfReport.json(HALVED).get("refused").isNull()).isTrue();
    }

    private static final WhatIf.Prediction LONGER = new WhatIf.Prediction(BOTTLENECK, null, 1.5, false, -27.9, -28.5,
            -27.0, 4, BOTTLENECK, BOTTLENECK, 62.4, 1234, 98.0, 0, 8_000_000_000L, false, false, null, -27.9);
    private static final Measured LOCK3 = new Measured("dev.lockscope.demo.LargeCriticalSection.juc3:73",
            68e6, 0.99, 1.5, 34e6, List.of(-30.0, -32.0, -31.0), Measured.Outcome.RESOLVED, HALVED, LONGER);
    private static final Measured LOCK1 = new Measured("dev.lockscope.demo.LargeCriticalSection.juc1:53",
            4.5e6, 0.2, 1.5, 2.25e6, List.of(1.0, -3.0, 2.0), Measured.Outcome.UNRESOLVED, null, null);
    private static final Measured BROKEN = new Measured("org.apache.logging.log4j.core.appender.OutputStreamManager.writeBytes:365",
            5780, 0.1, 1.5, 2890, List.of(-99.8), Measured.Outcome.BROKE, null, null);
    private static final Measured REFUSED = new Measured("org.apache.logging.log4j.core.appender.OutputStreamManager.flush:307",
            5780, 0.1, 1.5, 2890, List.of(-20.0, -21.0, -22.0), Measured.Outcome.RESOLVED, null, null);

    @Test
    void theReportOfTheProfiledRunCarriesTheMeasuredSitesInEveryFormat() {
        Report plain = Recordings.report(Recordings.small());
        Report report = plain.withMeasured(List.of(LOCK3, LOCK1));

        assertThat(TextReport.render(plain, null)).doesNotContain("measured: each site");
        assertThat(TextReport.render(report, null)).contains("measured: each site's holds lengthened")
                .contains("    holds halved: +88.6% (sensitivity 0.92)\n    the replay, holds halved: +94.1% high\n");
        JsonNode json = JsonReport.toJson(report);
        assertThat(json.get("measured")).hasSize(2);
        assertThat(json.get("measured").get(0).get("site").textValue()).isEqualTo(LOCK3.site());
        assertThat(JsonReport.toJson(plain).has("measured")).isFalse();
        // the page's data carries the same array, and its script draws it in the "what would help" section
        String page = HtmlReport.render(report);
        assertThat(page).contains("\"measured\":[{\"site\":\"" + LOCK3.site()).contains("whatif-measured");
        assertThat(HtmlReport.render(plain)).doesNotContain("\"measured\":[");
    }

    @Test
    void jsonMembersInStableOrder() {
        JsonNode o = WhatIfReport.json(HALVED);
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);

        assertThat(names).containsExactly("lock", "row", "kind", "site", "factor", "removed", "changePct", "lowPct", "highPct",
                "parts", "confidence", "topLockBefore", "topLockAfter", "topWaitSharePct", "holds", "holdsSeenPct",
                "forcedGrants", "replayedNanos", "truncated", "replayChangePct", "ceilingsChecked", "bounded", "ceiling", "refused");
        assertThat(o.get("lock").textValue()).isEqualTo(BOTTLENECK.label());
        assertThat(o.get("changePct").decimalValue()).isEqualByComparingTo("94.06");
        assertThat(o.get("confidence").textValue()).isEqualTo("high");
    }
}
