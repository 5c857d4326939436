package dev.lockscope.agent;

import dev.lockscope.core.EventNames;
import dev.lockscope.core.LockMetrics;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

class MonitorContentionIT {
    @TempDir
    Path dir;

    /** A monitor of its own class, so that the JVM's and other tests' monitors do not count. */
    private static final class ContendedMonitor {
    }

    /**
     * The stream's recording runs before the agent's start returns, so the chunk rotation of its start falls
     * before the application's main and splits none of its monitor entries (whose call chains it lost).
     */
    @Test
    void theStreamsRecordingRunsWhenTheConstructorReturns() {
        try (MonitorContention monitors = MonitorContention.live(Duration.ofMillis(1), 10)) {
            assertThat(monitors.started()).as("started, not given up on after %s", MonitorContention.START_WAIT).isTrue();
            assertThat(FlightRecorder.getFlightRecorder().getRecordings())
                    .anyMatch(r -> r.getState() == RecordingState.RUNNING);
        }
    }

    /** The table's monitor rows read from a written recording: every contended entry of the monitor, its times summed. */
    @Test
    void aRecordingsMonitorWaitsAreReadFromItsFile() throws Exception {
        ContendedMonitor monitor = new ContendedMonitor();
        Path file = dir.resolve("monitors.jfr");
        try (Recording r = new Recording()) {
            r.enable(EventNames.MONITOR_ENTER).withThreshold(Duration.ZERO).withStackTrace();
            r.start();
            for (int round = 0; round < 5; round++) {
                CountDownLatch held = new CountDownLatch(1);
                Thread holder = new Thread(() -> {
                    synchronized (monitor) {
                        held.countDown();
                        sleep(30);
                    }
                });
                holder.start();
                held.await();
                synchronized (monitor) {
                    // entered once the holder left: one contended entry per round
                }
                holder.join();
            }
            r.stop();
            r.dump(file);
        }
        long count = 0;
        long nanos = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            RecordedClass c = e.getValue("monitorClass");
            if (e.getEventType().getName().equals(EventNames.MONITOR_ENTER) && c != null
                    && c.getName().equals(ContendedMonitor.class.getName())) {
                count++;
                nanos += e.getDuration().toNanos();
            }
        }
        assertThat(count).as("contended entries JFR recorded").isGreaterThanOrEqualTo(5);

        List<LockMetrics> rows = MonitorContention.read(file, 10).metrics(1_000_000_000L).stream()
                .filter(m -> m.className().equals(ContendedMonitor.class.getName())).toList();
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).timesParked()).isEqualTo(count);
        assertThat(rows.get(0).threadTimeNanos()).isEqualTo(nanos);
        assertThat(rows.get(0).firstFrames()).anyMatch(f -> f.contains("aRecordingsMonitorWaitsAreReadFromItsFile"));
    }

    /**
     * Beyond {@code maxMonitors} objects the least recently waited for is retired into its site's sum: the site's row
     * (what the table shows) has the same parks, waiting, real-time and objects as when every object is followed.
     */
    @Test
    void monitorsBeyondTheCapAreSummedAtTheirSite() throws Exception {
        List<ContendedMonitor> objects = java.util.stream.IntStream.range(0, 6).mapToObj(i -> new ContendedMonitor()).toList();
        Path file = dir.resolve("many.jfr");
        try (Recording r = new Recording()) {
            r.enable(EventNames.MONITOR_ENTER).withThreshold(Duration.ZERO).withStackTrace();
            r.start();
            // in turns: with two followed, each object is retired and waited for again
            for (int round = 0; round < 2; round++) {
                for (ContendedMonitor monitor : objects) {
                    contend(monitor);
                }
            }
            r.stop();
            r.dump(file);
        }
        long run = 1_000_000_000L;
        LockMetrics all = site(MonitorContention.read(file, 100), run);
        LockMetrics capped = site(MonitorContention.read(file, 2), run);
        // (the JVM may deflate a monitor between turns: its next wait is then at a new address, a new object)
        assertThat(all.instances()).as("every object followed").isBetween(6, 12);
        assertThat(all.timesParked()).isGreaterThanOrEqualTo(12);
        assertThat(capped.timesParked()).isEqualTo(all.timesParked());
        assertThat(capped.threadTimeNanos()).isEqualTo(all.threadTimeNanos());
        assertThat(capped.realTimeNanos()).isEqualTo(all.realTimeNanos());
        assertThat(capped.instances()).as("retired objects counted once at their site").isEqualTo(all.instances());
    }

    /** The one site row of the test's monitors, as the agent's table groups them. */
    private static LockMetrics site(MonitorContention monitors, long run) {
        List<LockMetrics> rows = dev.lockscope.core.LockSites.group(monitors.metrics(run).stream()
                .filter(m -> m.className().equals(ContendedMonitor.class.getName())).toList(), run, monitors.siteRealTimes(run));
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    /** One contended entry of {@code monitor}: a holder keeps it 20 ms, this thread enters once it has it. */
    private static void contend(Object monitor) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (monitor) {
                held.countDown();
                sleep(20);
            }
        });
        holder.start();
        held.await();
        synchronized (monitor) {
            // entered once the holder left
        }
        holder.join();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
