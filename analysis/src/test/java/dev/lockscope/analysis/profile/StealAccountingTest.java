package dev.lockscope.analysis.profile;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StealAccountingTest {
    /** Hofer Fig. 5.1: deltas T1 = 10, T2 = 9, T3 = 1 of a total 20 with 10 stolen give 5 / 4.5 / 0.5. */
    @Test
    void fig51() {
        StealAccounting s = new StealAccounting();
        // counters in tenths so 4.5 is whole; the first sample attributes nothing
        Map<Long, Long> first = s.sample(1000, 300, Map.of(1L, 500L, 2L, 400L, 3L, 100L, 4L, 70L));
        assertThat(first).isEmpty();
        Map<Long, Long> second = s.sample(1000 + 200, 300 + 100, Map.of(1L, 600L, 2L, 490L, 3L, 110L, 4L, 70L));
        assertThat(second).containsExactlyInAnyOrderEntriesOf(Map.of(1L, 50L, 2L, 45L, 3L, 5L));
        assertThat(s.stolenFrom(4)).isZero(); // idle thread
        assertThat(s.machineSteal()).isEqualTo(100);
    }

    @Test
    void aThreadFirstSeenLaterStartsAttributingAtItsSecondSample() {
        StealAccounting s = new StealAccounting();
        s.sample(0, 0, Map.of(1L, 0L));
        s.sample(100, 10, Map.of(1L, 100L, 2L, 50L));
        assertThat(s.stolenFrom(1)).isEqualTo(10);
        assertThat(s.stolenFrom(2)).isZero();
        s.sample(200, 30, Map.of(2L, 150L)); // thread 1 ended or used no CPU: keeps what it had
        assertThat(s.stolenFrom(1)).isEqualTo(10);
        assertThat(s.stolenFrom(2)).isEqualTo(20);
    }

    @Test
    void noStealNoAttribution() {
        StealAccounting s = new StealAccounting();
        s.sample(0, 5, Map.of(1L, 0L));
        assertThat(s.sample(100, 5, Map.of(1L, 100L))).isEmpty();
    }
}
