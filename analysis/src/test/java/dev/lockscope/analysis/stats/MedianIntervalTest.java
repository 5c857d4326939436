package dev.lockscope.analysis.stats;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MedianIntervalTest {
    @Test
    void spansFewValuesAndNarrowsWithMore() {
        assertThat(MedianInterval.of(List.of(5.0, 1.0, 3.0, 2.0, 4.0))).containsExactly(1.0, 5.0); // k = 2: all of them
        List<Double> hundred = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            hundred.add((double) i);
        }
        // k = floor(0.98 * 10) = 9: order statistics 49 - 9 and 50 + 9 (0-based), around the median 50.5
        assertThat(MedianInterval.of(hundred)).containsExactly(41.0, 60.0);
        assertThat(MedianInterval.of(List.of())).containsExactly(Double.NaN, Double.NaN);
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertThat(MedianInterval.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(MedianInterval.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
        assertThat(MedianInterval.median(List.of())).isNaN();
    }
}
