package dev.lockscope.agent.boot;

import org.junit.jupiter.api.Test;

import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The calibration of JFR's clock against nanoTime, on clocks whose relation to nanoTime the test knows. */
class JfrClockTest {
    @Test
    void aClockThatIsNanoTimeMinusAConstantHasThatOffset() {
        long offset = JfrClock.offsetOf(new LongSupplier() {
            @Override
            public long getAsLong() {
                return System.nanoTime() - 123_456_789L;
            }
        });
        // within half a bracket: the bracket is two clock reads, at most MAX_BRACKET_NANOS
        assertThat(offset).isBetween(123_456_789L - JfrClock.MAX_BRACKET_NANOS / 2, 123_456_789L + JfrClock.MAX_BRACKET_NANOS / 2);
    }

    @Test
    void aClockAtAnotherRateHasNone() {
        // a TSC read as JFR's ticks: 2.5 ticks a nanosecond
        assertThat(JfrClock.offsetOf(new LongSupplier() {
            @Override
            public long getAsLong() {
                return System.nanoTime() * 5 / 2;
            }
        })).isEqualTo(Long.MIN_VALUE);
        // a rate off by 0.1%: it drifts 5 us over the 5 ms the calibration takes at least
        assertThat(JfrClock.offsetOf(new LongSupplier() {
            @Override
            public long getAsLong() {
                return System.nanoTime() + System.nanoTime() / 1000;
            }
        })).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void aClockThatStoredNothingHasNone() {
        assertThat(JfrClock.offsetOf(new LongSupplier() {
            @Override
            public long getAsLong() {
                return 0;
            }
        })).isEqualTo(Long.MIN_VALUE);
    }
}
