package dev.lockscope.sched;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Collectors attached to this test JVM while one named thread spins and sleeps; no timing assertions. */
class CollectorOnThisJvmIT {
    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty("lockscope.perf");
    }

    /** Runs a thread that alternates 5 ms of spinning and 5 ms of sleep, 20 times, under {@code source}. */
    SchedTrace collect(String source) throws Exception {
        Path out = dir.resolve("self.sched");
        CountDownLatch go = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                go.await();
                for (int i = 0; i < 20; i++) {
                    long end = System.nanoTime() + 5_000_000;
                    while (System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                    Thread.sleep(5);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "sched-probe");
        try (SchedCollector c = SchedCollector.start(ProcessHandle.current().pid(), out, source)) {
            t.start(); // born during the window: its name is set only after it starts running
            go.countDown();
            t.join(TimeUnit.SECONDS.toMillis(30));
            SchedTrace trace = c.stop();
            assertThat(SchedFile.read(out)).isEqualTo(trace);
            int tid = trace.names().entrySet().stream().filter(e -> e.getValue().equals("sched-probe"))
                    .findFirst().orElseThrow().getKey();
            assertThat(trace.transitions()).filteredOn(x -> x.tid() == tid && x.state() == ThreadState.RUNNING)
                    .isNotEmpty();
            return trace;
        }
    }

    @Test
    void perfRecordsSwitchesExactly() throws Exception {
        SchedTrace t = collect("perf");
        assertThat(t.source()).isEqualTo(SchedSource.PERF);
        assertThat(t.approximate()).as(t.approximateReason()).isFalse();
        assertThat(t.epochOffsetNanos()).isNotEqualTo(SchedTrace.UNKNOWN_OFFSET);
        assertThat(Files.list(dir)).containsExactly(dir.resolve("self.sched")); // perf.data removed
    }

    @Test
    void forcedFallbackIsMarkedApproximate() throws Exception {
        SchedTrace t = collect("schedstat");
        assertThat(t.source()).isEqualTo(SchedSource.SCHEDSTAT);
        assertThat(t.approximateReason()).contains("forced").contains("schedstat");
    }

    @Test
    void withoutPerfAutoFallsBackAndSaysWhy() throws Exception {
        System.setProperty("lockscope.perf", dir.resolve("no-such-perf").toString());
        SchedTrace t = collect("auto");
        assertThat(t.source()).isEqualTo(SchedSource.SCHEDSTAT);
        assertThat(t.approximateReason()).contains("perf not found");
    }
}
