package dev.lockscope.analysis.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SamplingPeriodTest {
    @Test
    void periodsAndThrottlesAsJfrWritesThem() {
        assertThat(SamplingPeriod.parseNanos("20 ms")).isEqualTo(20_000_000L);
        assertThat(SamplingPeriod.parseNanos("10ms")).isEqualTo(10_000_000L);
        assertThat(SamplingPeriod.parseNanos("1 s")).isEqualTo(1_000_000_000L);
        assertThat(SamplingPeriod.parseNanos("500 us")).isEqualTo(500_000L);
        assertThat(SamplingPeriod.parseNanos("off")).isZero();
        assertThat(SamplingPeriod.parseNanos("100/s")).isZero();
        assertThat(SamplingPeriod.parseNanos("endChunk")).isZero();
        assertThat(SamplingPeriod.parseNanos(null)).isZero();
    }
}
