package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JucLocksTest {
    private static final String FAIR = "java.util.concurrent.locks.ReentrantLock$FairSync";
    private static final String READ_WRITE = "java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync";
    private static final String STAMPED = "java.util.concurrent.locks.StampedLock";
    private static final String SEMAPHORE = "java.util.concurrent.Semaphore$NonfairSync";

    /** Each question names its own set: hold times only from an exclusive lock, a holder for all three. */
    @Test
    void eachLockClassAnswersWhatItsParksWaitFor() {
        assertThat(JucLocks.isExclusive(FAIR)).isTrue();
        assertThat(JucLocks.isExclusive(READ_WRITE)).isFalse();
        assertThat(JucLocks.isReleasedByUnlock(READ_WRITE)).isTrue();
        assertThat(JucLocks.isReleasedByUnlock(STAMPED)).isFalse();
        assertThat(JucLocks.hasHolder(STAMPED)).isTrue();
        assertThat(JucLocks.hasHolder(FAIR)).isTrue();
        // a permit, not a holder: a semaphore's waiter waits for any release
        assertThat(JucLocks.hasHolder(SEMAPHORE)).isFalse();
        assertThat(JucLocks.isReleasedByUnlock("java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject")).isFalse();
    }
}
