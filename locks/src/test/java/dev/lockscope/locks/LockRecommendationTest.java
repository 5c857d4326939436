package dev.lockscope.locks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LockRecommendationTest {

    /** Kawachiya's Table 4.3 and 5.2 figures, as the deep mode would measure them. */
    @Test
    void choosesByLocalityAndTransience() {
        // _209_db: 99.9998% of acquisitions in the first repetition, never contended.
        assertThat(LockRecommendation.forMeasured(0.999998, Double.POSITIVE_INFINITY, false))
                .isEqualTo(LockRecommendation.RESERVATION);
        // SPECjbb2000: 79.4% first repetition.
        assertThat(LockRecommendation.forMeasured(0.79392, Double.POSITIVE_INFINITY, false))
                .isEqualTo(LockRecommendation.ASYMMETRIC_TASUKI);
        // HotJava nowait group: flat sections 1519.07 SyncOps against fat 35.45, shared by many threads.
        assertThat(LockRecommendation.forMeasured(0.3, 1519.07 / 35.45, false))
                .isEqualTo(LockRecommendation.TASUKI);
        // eSuite wait group: 6.08 against 12.07, and waits.
        assertThat(LockRecommendation.forMeasured(0.3, 6.08 / 12.07, true))
                .isEqualTo(LockRecommendation.KEEP_CURRENT_LOCK);
    }
}
