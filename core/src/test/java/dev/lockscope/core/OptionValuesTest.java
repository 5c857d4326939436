package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OptionValuesTest {
    @Test
    void durationsInEveryUnit() {
        assertThat(OptionValues.durationNanos("t", "0", 0, Long.MAX_VALUE)).isZero();
        assertThat(OptionValues.durationNanos("t", "250ns", 0, Long.MAX_VALUE)).isEqualTo(250);
        assertThat(OptionValues.durationNanos("t", "10us", 0, Long.MAX_VALUE)).isEqualTo(10_000);
        assertThat(OptionValues.durationNanos("t", "20ms", 0, Long.MAX_VALUE)).isEqualTo(20_000_000);
        assertThat(OptionValues.durationNanos("t", "2s", 0, Long.MAX_VALUE)).isEqualTo(2_000_000_000);
        assertThat(OptionValues.durationNanos("t", "3m", 0, Long.MAX_VALUE)).isEqualTo(180_000_000_000L);
        assertThat(OptionValues.durationNanos("t", "1h", 0, Long.MAX_VALUE)).isEqualTo(3_600_000_000_000L);
        assertThat(OptionValues.durationNanos("t", "1d", 0, Long.MAX_VALUE)).isEqualTo(OptionValues.NANOS_PER_DAY);
    }

    @Test
    void hugeValuesAreRefusedNotWrapped() {
        // 10^17 s does not fit in a long of nanoseconds: it must not wrap to a small or negative value
        assertThatThrownBy(() -> OptionValues.threshold("--threshold", "100000000000000000s"))
                .hasMessage("--threshold must be between 0 and 1h, not '100000000000000000s'");
        assertThatThrownBy(() -> OptionValues.threshold("--threshold", "9999999999999999999999ms"))
                .hasMessageContaining("must be a duration");
        assertThatThrownBy(() -> OptionValues.bytes("--max-size", "99999999999999g", 0, OptionValues.MAX_RECORDING_BYTES))
                .hasMessageContaining("between 0 and 1024g");
    }

    @Test
    void negativeAndMalformedValuesAreOneLineMessages() {
        assertThatThrownBy(() -> OptionValues.threshold("--threshold", "-1ms")).hasMessage("--threshold must not be negative, not '-1ms'");
        assertThatThrownBy(() -> OptionValues.parkCount("--print-threshold", "-3")).hasMessage("--print-threshold must not be negative, not '-3'");
        assertThatThrownBy(() -> OptionValues.threshold("--threshold", "soon")).hasMessageContaining("must be a duration");
        assertThatThrownBy(() -> OptionValues.threshold("--threshold", "1.5ms")).hasMessageContaining("must be a duration");
        assertThatThrownBy(() -> OptionValues.cpuSamples("--cpu-samples", "10us")).hasMessage("--cpu-samples must be between 1ms and 1h, not '10us'");
        assertThatThrownBy(() -> OptionValues.maxSize("--max-size", "lots")).hasMessageContaining("must be a size");
    }

    @Test
    void sizes() {
        assertThat(OptionValues.maxSize("s", "0")).isZero();
        assertThat(OptionValues.maxSize("s", "512m")).isEqualTo(512L << 20);
        assertThat(OptionValues.maxSize("s", "2g")).isEqualTo(2L << 30);
        assertThat(OptionValues.formatBytes(512L << 20)).isEqualTo("512m");
        assertThat(OptionValues.formatNanos(OptionValues.NANOS_PER_DAY)).isEqualTo("1d");
        assertThat(OptionValues.formatNanos(1_500_000)).isEqualTo("1500us");
    }
}
