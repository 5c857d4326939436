package dev.lockscope.analysis.profile;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WallClockWeightsTest {
    @Test
    void aRunningSampleStandsForTheTimeToTheNextEventAtMostOnePeriod() {
        long period = 20;
        // samples at 0, 20, 40; a recorded wait from 50 to 150; a sample at 150; thread ends at 160
        assertThat(WallClockWeights.runningSample(0, 20, 160, period)).isEqualTo(20);
        assertThat(WallClockWeights.runningSample(20, 40, 160, period)).isEqualTo(20);
        assertThat(WallClockWeights.runningSample(40, 50, 160, period)).isEqualTo(10);
        assertThat(WallClockWeights.runningSample(150, Long.MAX_VALUE, 160, period)).isEqualTo(10);
        // 20 + 20 + 10 running + 100 waiting + 10 running = 160: running and waiting share one scale
    }

    @Test
    void aGapLongerThanThePeriodIsNotCountedAsRunning() {
        assertThat(WallClockWeights.runningSample(0, 500, 1000, 20)).isEqualTo(20);
    }
}
