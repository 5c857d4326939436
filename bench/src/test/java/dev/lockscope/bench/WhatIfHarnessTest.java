package dev.lockscope.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WhatIfHarnessTest {
    private static final WhatIfHarness.Workload LOG4J = new WhatIfHarness.Workload("log4j2", 16, "log4j2");

    private static WhatIfHarness.Result result(String outcome, Double predicted, Double error) {
        return new WhatIfHarness.Result(LOG4J, "org.apache.logging.log4j.core.appender.OutputStreamManager.writeBytes:365",
                5_780, 1.5, outcome, 5, -30, -32, -28, predicted, predicted == null ? null : "high", error, null, null, null, 40);
    }

    @Test
    void aPredictionIsRightWithinAFifthOfTheMeasuredChangeAndOnlyWhenThatChangeWasResolved() {
        assertThat(result("resolved", -27.0, 10.0).verdict()).isEqualTo("within 20%");
        assertThat(result("resolved", -24.0, -20.0).verdict()).isEqualTo("within 20%");
        assertThat(result("resolved", -20.0, 33.3).verdict()).isEqualTo("off by more than 20%");
        assertThat(result("could not be resolved", -27.0, null).verdict()).isEqualTo("no check: the measured change could not be resolved");
        assertThat(result("resolved", null, null).verdict()).startsWith("no prediction");
        assertThat(new WhatIfHarness.Result(LOG4J, null, Double.NaN, Double.NaN, null, 0, Double.NaN, Double.NaN, Double.NaN,
                null, null, null, null, "no hold to lengthen", null, 9).verdict()).isEqualTo("not measured: no hold to lengthen");
        assertThat(new WhatIfHarness.Result(LOG4J, "A.a:1", 3_600, 1.56, "resolved", 3, -69.6, -73.3, -62.8, -32.5, "high", null,
                "more than longer holds cost", null, null, 30).verdict()).isEqualTo("no check: more than longer holds cost");
    }

    @Test
    void theTableCountsThePredictionsAndTheRightOnes() {
        String md = WhatIfHarness.markdown(List.of(result("resolved", -27.0, 10.0), result("resolved", -20.0, 33.3),
                result("resolved", null, null)));
        assertThat(md).contains("| log4j2 | `org.apache.logging.log4j.core.appender.OutputStreamManager.writeBytes:365` | 5.8 µs | 1.50 | "
                + "-30.0% [-32.0, -28.0] resolved | 5 | -27.0% high | +10% | within 20% | 40 |")
                .contains("The replay predicted 2 of 3 workloads' top sites; 2 of them checked by the experiment, 1 within 20% of the "
                        + "measured change.");
    }
}
