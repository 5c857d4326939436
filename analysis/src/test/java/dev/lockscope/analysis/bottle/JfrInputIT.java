package dev.lockscope.analysis.bottle;

import dev.lockscope.analysis.model.RecordingReader;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.StackTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Thread names and waits read back from a JFR recording made in this JVM. */
class JfrInputIT {
    @TempDir
    Path dir;

    @Test
    void javaNamesByOsTid_andSleepAndEndEventsOnTheMonotonicTimeLine() throws Exception {
        AtomicInteger tid = new AtomicInteger();
        Path file = dir.resolve("r.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ThreadSleep").withThreshold(Duration.ZERO).withStackTrace();
            r.enable("jdk.ThreadStart");
            r.enable("jdk.ThreadEnd");
            r.start();
            long offset = dev.lockscope.sched.SchedTrace.currentEpochOffset();
            Thread t = new Thread(() -> {
                try {
                    String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
                    tid.set(Integer.parseInt(self.substring(self.lastIndexOf('/') + 1)));
                    Thread.sleep(30);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "a-rather-long-java-thread-name");
            long before = System.nanoTime();
            t.start();
            t.join();
            long after = System.nanoTime();
            r.stop();
            r.dump(file);

            JfrWaits read = new JfrWaits();
            JfrThreadNames threadNames = new JfrThreadNames();
            RecordingReader.read(file, read, threadNames);
            Map<Integer, String> names = threadNames.javaNames();
            assertThat(names).containsEntry(tid.get(), "a-rather-long-java-thread-name");
            assertThat(JfrThreadNames.merge(Map.of(tid.get(), "a-rather-long-j", 1, "x"), names))
                    .containsEntry(tid.get(), "a-rather-long-java-thread-name").containsEntry(1, "x");

            List<WaitInterval> waits = read.intervals(offset).stream().filter(w -> w.tid() == tid.get()).toList();
            WaitInterval sleep = waits.stream().filter(w -> w.state().equals("sleeping")).findFirst().orElseThrow();
            // placed inside [before, after] up to the clock-offset error: allow 5 ms either side
            assertThat(sleep.startNanos()).isBetween(before - 5_000_000, after + 5_000_000);
            assertThat(sleep.endNanos() - sleep.startNanos()).isGreaterThanOrEqualTo(29_000_000);
            assertThat(sleep.detail()).contains(JfrInputIT.class.getName());
            assertThat(waits).extracting(WaitInterval::state).contains("not started yet", "finished");
        }
    }

    /** A stand-in with the name and fields of the agent's event (the agent-boot classes are not on this path). */
    @Name("lockscope.Park")
    @StackTrace(true)
    static final class Park extends Event {
        String blockerClass;
    }

    @Test
    void withoutJdkThreadParkTheAgentsParkEventsGiveTheParkedIntervals() throws Exception {
        Path file = dir.resolve("p.jfr");
        try (Recording r = new Recording()) {
            r.enable("lockscope.Park").withThreshold(Duration.ZERO).withStackTrace();
            r.enable("jdk.ThreadStart");
            r.start();
            long offset = dev.lockscope.sched.SchedTrace.currentEpochOffset();
            String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
            int tid = Integer.parseInt(self.substring(self.lastIndexOf('/') + 1));
            long before = System.nanoTime();
            Park e = new Park();
            e.blockerClass = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
            e.begin();
            Thread.sleep(20);
            e.end();
            e.commit();
            long after = System.nanoTime();
            r.stop();
            r.dump(file);

            WaitInterval park = RecordedWaits.of(file, offset).stream()
                    .filter(w -> w.tid() == tid && w.state().equals("parked")).findFirst().orElseThrow();
            assertThat(park.startNanos()).isBetween(before - 5_000_000, after + 5_000_000);
            assertThat(park.endNanos() - park.startNanos()).isGreaterThanOrEqualTo(19_000_000);
            assertThat(park.detail()).startsWith("java.util.concurrent.locks.ReentrantLock$NonfairSync at "
                    + JfrInputIT.class.getName());
        }
    }
}
