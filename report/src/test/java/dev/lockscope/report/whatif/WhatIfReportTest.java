package dev.lockscope.report.whatif;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockscope.analysis.blame.LockId;
import dev.lockscope.analysis.whatif.WhatIf;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WhatIfReportTest {
    private static final LockId BOTTLENECK = LockId.blocker("java.util.concurrent.locks.ReentrantLock$NonfairSync", 0x3765a5b6);
    private static final LockId OTHER = LockId.monitor("java.lang.Object", 0x7f00);
    private static final WhatIf.Prediction HALVED = new WhatIf.Prediction(BOTTLENECK, null, 0.5, false, 94.06, 91.2,
            96.04, 4, BOTTLENECK, OTHER, 62.4, 1234, 98.0, 0, 8_000_000_000L, false);
    private static final WhatIf.Prediction LITTLE = new WhatIf.Prediction(OTHER, null, 0.5, false, 0.3, -1, 2, 2,
            BOTTLENECK, BOTTLENECK, 99, 12, 40, 0, 8_000_000_000L, false);

    @Test
    void theSectionListsEveryPredictionWithItsSpreadAndConfidence() {
        String text = WhatIfReport.section(List.of(HALVED, LITTLE), 10);

        assertThat(text).startsWith("\nwhat would help: each lock's holds 0.5× as long in a replay of the recording");
        assertThat(text).contains("+94.1% [+91.2%, +96.0%]    high   ").contains("+0.3% [-1.0%, +2.0%]      low");
        assertThat(text.lines()).allMatch(l -> l.length() <= 100);
        assertThat(WhatIfReport.section(List.of(HALVED, LITTLE), 1)).contains("(1 more locks, --top)")
                .doesNotContain("+0.3%");
        assertThat(WhatIfReport.section(List.of(), 10)).isEmpty();
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
    void jsonMembersInStableOrder() {
        JsonNode o = WhatIfReport.json(HALVED);
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);

        assertThat(names).containsExactly("lock", "kind", "site", "factor", "removed", "changePct", "lowPct", "highPct",
                "parts", "confidence", "topLockBefore", "topLockAfter", "topWaitSharePct", "holds", "holdsSeenPct",
                "forcedGrants", "replayedNanos", "truncated");
        assertThat(o.get("lock").textValue()).isEqualTo(BOTTLENECK.label());
        assertThat(o.get("changePct").decimalValue()).isEqualByComparingTo("94.06");
        assertThat(o.get("confidence").textValue()).isEqualTo("high");
    }
}
