package dev.lockscope.analysis;

import dev.lockscope.agent.boot.BlockerRegistry;
import dev.lockscope.agent.boot.LockSummaries;
import dev.lockscope.agent.boot.ParkHooks;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.ParkTally;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's live tallies (the hooks called directly, no instrumentation) written as
 * {@code lockscope.LockSummary} events when a recording stops, read back by the report's analysis:
 * times parked, parked now, peak, thread-time and real-time agree to the nanosecond, although the
 * recording's threshold left every short park out of the {@code lockscope.Park} events.
 */
class LiveSummaryAgreementTest {
    @TempDir
    Path dir;

    /** Its own class, so its record is easy to find. */
    static final class Blocker {
    }

    @Test
    void reportOfTheSummariesEqualsTheLiveSnapshotTheyWereWrittenFrom() throws Exception {
        BlockerRegistry.configure(0, 1_000);
        ParkHooks.activate();
        Blocker blocker = new Blocker();
        Path file = dir.resolve("live.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("lockscope.Park").withThreshold(Duration.ofMillis(50)).withStackTrace();
            recording.enable("lockscope.LockSummary").with("period", "endChunk");
            recording.start();
            int threads = 3;
            CountDownLatch allParkedOnce = new CountDownLatch(threads);
            Thread[] workers = new Thread[threads];
            for (int i = 0; i < threads; i++) {
                workers[i] = new Thread(() -> {
                    for (int n = 0; n < 200; n++) {
                        Object token = ParkHooks.parkBegin(blocker, 100_000, 0);
                        LockSupport.parkNanos(100_000);
                        ParkHooks.parkEnd(token);
                        if (n == 0) {
                            allParkedOnce.countDown();
                        }
                    }
                }, "parker-" + i);
                workers[i].start();
            }
            allParkedOnce.await();
            // one park still open when the recording stops: "parked now"
            Object open = ParkHooks.parkBegin(blocker, 0, 0);
            for (Thread t : workers) {
                t.join();
            }
            recording.stop();
            recording.dump(file);
            ParkHooks.parkEnd(open);
        }
        LockSummaries.Entry live = LockSummaries.lastWritten().entries().stream()
                .filter(e -> e.record().className.equals(Blocker.class.getName())).findFirst().orElseThrow();
        ParkTally t = live.tally();
        assertThat(t.timesParked).isEqualTo(601);
        assertThat(t.parkedNow).isEqualTo(1);
        assertThat(t.threadTimeNanos).isGreaterThanOrEqualTo(600 * 100_000L);

        LockContentionAnalysis analysis = new LockContentionAnalysis(new ContentionOptions(0, 0));
        RecordingReader.read(file, analysis);
        LockMetrics reported = analysis.result().locks().stream()
                .filter(m -> m.className().equals(Blocker.class.getName())).findFirst().orElseThrow();
        assertThat(reported.identityHash()).isEqualTo(Integer.toHexString(live.record().identityHash));
        assertThat(reported.timesParked()).isEqualTo(t.timesParked);
        assertThat(reported.parkedNow()).isEqualTo(t.parkedNow);
        assertThat(reported.peakParked()).isEqualTo(t.peakParked);
        assertThat(reported.threadTimeNanos()).isEqualTo(t.threadTimeNanos);
        assertThat(reported.realTimeNanos()).isEqualTo(t.realTimeNanos);
        assertThat(reported.tally().lifeTimeNanos()).isEqualTo(t.lifeTimeNanos());
        assertThat(reported.firstThread()).isEqualTo(live.record().firstThread());
    }
}
