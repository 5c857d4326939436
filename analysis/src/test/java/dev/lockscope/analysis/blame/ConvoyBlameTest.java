package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.LockMetrics;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.lockscope.analysis.blame.RecordingBuilder.LOCK;
import static dev.lockscope.analysis.blame.RecordingBuilder.RL;
import static dev.lockscope.analysis.blame.RecordingBuilder.UNLOCK;
import static dev.lockscope.analysis.blame.RecordingBuilder.chain;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A convoy: 2,000 threads parked on one {@code ReentrantLock} at once, woken one by one, each by the
 * thread woken before it. Every release is a hand-off for every thread still parked, so this is the
 * case where an analysis that visits all waiters at each unpark does N² work (it took minutes at
 * this size); the test checks the blame of every owner exactly, and that the whole thing finishes.
 */
class ConvoyBlameTest {
    private static final int WAITERS = 2_000;
    private static final double FIRST_RELEASE_MS = 10;
    private static final double HOLD_MS = 0.1;
    private static final double WAKE_UP_MS = 0.02;

    @Test
    void everyReleaseIsBlamedForEveryThreadStillParked() {
        RecordingBuilder b = new RecordingBuilder();
        ThreadRef owner = b.thread(1, "owner");
        ThreadRef[] waiters = new ThreadRef[WAITERS];
        for (int k = 0; k < WAITERS; k++) {
            waiters[k] = b.thread(100 + k, "waiter-" + k);
        }
        List<String> parkedIn = chain(LOCK, "app.Convoy.work:10");
        List<String> releasedIn = chain(UNLOCK, "app.Convoy.work:12");
        long expectedTotal = 0;
        long expectedWakeUps = 0;
        for (int k = 0; k < WAITERS; k++) {
            double begin = 0.001 * (k + 1); // waiter k parks k+1 µs into the recording
            double release = release(k);
            b.park(waiters[k], RL, 7, begin, release + WAKE_UP_MS, 0, 1, parkedIn);
            b.unpark(k == 0 ? owner : waiters[k - 1], release, 1, waiters[k], RL, 7, releasedIn);
            expectedTotal += RecordingBuilder.ns(release + WAKE_UP_MS) - RecordingBuilder.ns(begin);
            expectedWakeUps += RecordingBuilder.ns(release + WAKE_UP_MS) - RecordingBuilder.ns(release);
        }
        LockRecording recording = b.endAt(release(WAITERS) + 1).build();

        BlameResult blame = recording.blame();

        Map<String, Long> nanosByOwner = new HashMap<>();
        Map<String, Long> spansByOwner = new HashMap<>();
        for (Contention c : blame.contentions()) {
            nanosByOwner.merge(c.cause().owner().name(), c.nanos(), Long::sum);
            spansByOwner.merge(c.cause().owner().name(), c.count(), Long::sum);
        }
        long beforeFirstRelease = 0;
        for (int k = 0; k < WAITERS; k++) {
            beforeFirstRelease += RecordingBuilder.ns(FIRST_RELEASE_MS) - RecordingBuilder.ns(0.001 * (k + 1));
        }
        // the first owner held the lock while every waiter queued up; each waiter j-1 then held it for
        // one hold time while the WAITERS - j threads behind it were still parked
        assertThat(nanosByOwner.remove("owner")).isEqualTo(beforeFirstRelease);
        assertThat(spansByOwner.remove("owner")).isEqualTo(WAITERS);
        for (int j = 1; j < WAITERS; j++) {
            String name = "waiter-" + (j - 1);
            long hold = RecordingBuilder.ns(release(j)) - RecordingBuilder.ns(release(j - 1));
            assertThat(nanosByOwner.remove(name)).as(name).isEqualTo((WAITERS - j) * hold);
            assertThat(spansByOwner.remove(name)).as(name).isEqualTo(WAITERS - j);
        }
        // each waiter's own wake-up after the release that woke it: nobody to blame
        assertThat(nanosByOwner.remove("?")).isEqualTo(expectedWakeUps);
        assertThat(nanosByOwner).isEmpty();
        assertThat(blame.totalNanos()).isEqualTo(expectedTotal);

        LockMetrics lock = recording.contention(new ContentionOptions(0, 0)).locks().get(0);
        assertThat(lock.timesParked()).isEqualTo(WAITERS);
        assertThat(lock.peakParked()).isEqualTo(WAITERS);
        assertThat(lock.threadTimeNanos()).isEqualTo(expectedTotal);
    }

    private static double release(int j) {
        return FIRST_RELEASE_MS + j * HOLD_MS;
    }
}
