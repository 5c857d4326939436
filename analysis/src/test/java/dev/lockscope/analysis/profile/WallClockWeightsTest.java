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

    @Test
    void theFirstSampleAfterAWaitStandsForTheTimeSinceTheWaitEnded() {
        long period = 20;
        // sample at 0, a wait from 5 to 100, samples at 112 and 132
        assertThat(WallClockWeights.runningSample(0, 5, 200, period)).isEqualTo(5);
        assertThat(WallClockWeights.sinceResume(112, 0, 100, period)).isEqualTo(12);
        assertThat(WallClockWeights.runningSample(112, 132, 200, period)).isEqualTo(20);
        assertThat(WallClockWeights.sinceResume(132, 112, 100, period)).isZero(); // the wait ended before the previous sample
        // a long resume without samples counts one period at most, like a long gap between samples
        assertThat(WallClockWeights.sinceResume(500, 0, 100, period)).isEqualTo(20);
        assertThat(WallClockWeights.sinceResume(112, Long.MIN_VALUE, Long.MIN_VALUE, period)).isZero();
    }
}
