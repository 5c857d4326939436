package dev.lockscope.agent;

import dev.lockscope.agent.boot.MachineCpuEvent;
import dev.lockscope.agent.boot.ThreadCpuEvent;
import dev.lockscope.core.EventNames;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CpuTimeSamplerIT {
    @Test
    void writesEveryThreadThenTheMachineAndSaysSoWhenProcIsAbsent(@TempDir Path dir) throws Exception {
        FlightRecorder.register(ThreadCpuEvent.class);
        FlightRecorder.register(MachineCpuEvent.class);
        Path file = dir.resolve("cpu.jfr");
        try (Recording r = new Recording()) {
            r.enable(EventNames.THREAD_CPU);
            r.enable(EventNames.MACHINE_CPU);
            r.start();
            new CpuTimeSampler(dir.resolve("no-proc"), dir.resolve("no-proc/self/task")).sample();
            CpuTimeSampler real = new CpuTimeSampler(Path.of("/proc"), Path.of("/proc/self/task"));
            real.sample();
            spin(50); // more than a 10 ms tick of this thread's CPU time between the samples
            real.sample();
            r.stop();
            r.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        List<RecordedEvent> machine = events.stream().filter(e -> e.getEventType().getName().equals(EventNames.MACHINE_CPU)).toList();
        assertThat(machine).hasSize(3);
        assertThat(machine.get(0).getString("problem")).contains("not Linux");
        assertThat(machine.get(0).getLong("busyNanos")).isZero();
        RecordedEvent second = machine.get(2);
        assertThat(second.getString("problem")).isNull();
        assertThat(second.getLong("sample")).isEqualTo(2);
        assertThat(second.getLong("busyNanos")).isPositive();
        assertThat(second.getInt("cpus")).isPositive();
        long mainTid = Long.parseLong(Path.of("/proc/thread-self").toRealPath().getFileName().toString());
        List<RecordedEvent> threads = events.stream().filter(e -> e.getEventType().getName().equals(EventNames.THREAD_CPU)).toList();
        long first = threads.stream().filter(e -> e.getLong("sample") == 1 && e.getLong("osTid") == mainTid)
                .findFirst().orElseThrow().getLong("cpuNanos");
        assertThat(threads.stream().filter(e -> e.getLong("sample") == 2 && e.getLong("osTid") == mainTid))
                .singleElement().satisfies(e -> assertThat(e.getLong("cpuNanos")).isGreaterThan(first));
        // the first sample has every thread, the second only those that used CPU since (not the idle
        // Reference Handler, Signal Dispatcher, ...)
        long inFirst = threads.stream().filter(e -> e.getLong("sample") == 1).count();
        long inSecond = threads.stream().filter(e -> e.getLong("sample") == 2).count();
        assertThat(inSecond).as(inFirst + " threads in the first sample").isLessThan(inFirst);
        assertThat(threads.stream().filter(e -> e.getLong("sample") == 2).map(e -> e.getString("osName")))
                .doesNotContain("Reference Handl", "Signal Dispatch");
    }

    private static void spin(long millis) {
        long start = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long x = 1;
        while (java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - start < millis * 1_000_000L) {
            x = x * 31 + 7;
        }
        if (x == 42) {
            System.out.println(x);
        }
    }
}
