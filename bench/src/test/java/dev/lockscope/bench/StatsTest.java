package dev.lockscope.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The J9 park-contention report §4.2's statistics on values small enough to check by hand. */
class StatsTest {
    @Test
    void meanSigmaStandardErrorMedian() {
        Stats s = Stats.of(List.of(2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0));
        assertThat(s.mean()).isEqualTo(5.0);
        assertThat(s.sigma()).isEqualTo(2.0); // population σ, as the seed defines it
        assertThat(s.standardError()).isCloseTo(2.0 / Math.sqrt(8), within(1e-12));
        assertThat(s.median()).isEqualTo(4.5);
        assertThat(s.relativeStandardErrorPct()).isCloseTo(100 * (2.0 / Math.sqrt(8)) / 5.0, within(1e-12));
    }

    @Test
    void throughputOverheadAndItsInterval() {
        Stats base = Stats.of(List.of(99.0, 101.0));   // µ 100, σ 1, SE 1/√2
        Stats mod = Stats.of(List.of(97.0, 99.0));     // µ 98
        assertThat(Stats.throughputOverhead(mod, base)).isCloseTo(0.02, within(1e-12));
        double se = 1 / Math.sqrt(2);
        double[] iv = Stats.throughputOverheadInterval(mod, base);
        assertThat(iv[0]).isCloseTo(1 - (98 + se) / (100 - se), within(1e-12));
        assertThat(iv[1]).isCloseTo(1 - (98 - se) / (100 + se), within(1e-12));
        assertThat(Stats.medianThroughputOverhead(mod, base)).isCloseTo(0.02, within(1e-12));
    }

    @Test
    void memoryOverheadIsARatio() {
        Stats base = Stats.of(List.of(100.0, 100.0));
        Stats mod = Stats.of(List.of(110.0, 110.0));
        assertThat(Stats.memoryOverhead(mod, base)).isCloseTo(1.1, within(1e-12));
        assertThat(Stats.memoryOverheadInterval(mod, base)).containsExactly(1.1, 1.1);
    }

    @Test
    void emptyIsNotANumber() {
        assertThat(Stats.of(List.of()).mean()).isNaN();
    }
}
