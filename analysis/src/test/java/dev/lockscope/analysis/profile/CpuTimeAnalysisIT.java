package dev.lockscope.analysis.profile;

import dev.lockscope.agent.boot.MachineCpuEvent;
import dev.lockscope.agent.boot.ThreadCpuEvent;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.core.EventNames;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent's CPU-time samples as the reader sees them in a real recording, through the steal accounting. */
class CpuTimeAnalysisIT {
    private static final long MS = 1_000_000;

    /** Hofer Fig. 5.1 in a recording: deltas 10 / 9 / 1 (ms) of a total 20 with 10 stolen give 5 / 4.5 / 0.5. */
    @Test
    void fig51ThroughTheReader(@TempDir Path dir) throws Exception {
        Path file = record(dir, 0, null);
        CpuTimeAnalysis a = new CpuTimeAnalysis();
        RecordingReader.read(file, a);
        ThreadCpuTimes t = a.result();
        assertThat(t.sampled()).isTrue();
        assertThat(t.samples()).isEqualTo(2);
        assertThat(t.cpus()).isEqualTo(2);
        assertThat(t.machineStealNanos()).isEqualTo(10 * MS);
        assertThat(t.machineBusyNanos()).isEqualTo(10 * MS);
        assertThat(t.threads()).extracting(ThreadCpuTimes.Row::osTid).containsExactly(101L, 102L, 103L, 104L);
        assertThat(t.threads()).extracting(ThreadCpuTimes.Row::cpuNanos).containsExactly(10 * MS, 9 * MS, 1 * MS, 0L);
        assertThat(t.threads()).extracting(ThreadCpuTimes.Row::stealNanos).containsExactly(5 * MS, 4_500_000L, 500_000L, 0L);
        assertThat(t.threads()).extracting(ThreadCpuTimes.Row::correctedNanos).containsExactly(5 * MS, 4_500_000L, 500_000L, 0L);
        assertThat(t.threads().get(0).name()).isEqualTo("worker-1"); // no Java thread has tid 101: the OS name
        // the JVM's threads used 20 of the machine's 20 apparent ms: they get all its steal
        assertThat(t.jvmStealNanos()).isEqualTo(t.machineStealNanos());
    }

    @Test
    void aKernelThatLeavesStealOutOfThreadTimesKeepsTheMeasuredTime(@TempDir Path dir) throws Exception {
        CpuTimeAnalysis a = new CpuTimeAnalysis();
        RecordingReader.read(record(dir, 1, null), a);
        ThreadCpuTimes.Row first = a.result().threads().get(0);
        assertThat(first.stealNanos()).isEqualTo(5 * MS);
        assertThat(first.correctedNanos()).isEqualTo(first.cpuNanos());
    }

    @Test
    void noProcIsSaidNotFailed(@TempDir Path dir) throws Exception {
        CpuTimeAnalysis a = new CpuTimeAnalysis();
        RecordingReader.read(record(dir, -1, "no /proc/stat on this system (not Linux?)"), a);
        assertThat(a.result().sampled()).isFalse();
        assertThat(a.result().problem()).contains("not Linux");
        assertThat(a.result().threads()).isEmpty();
    }

    @Test
    void aRecordingWithoutSamplesHasNoTable(@TempDir Path dir) throws Exception {
        CpuTimeAnalysis a = new CpuTimeAnalysis();
        Path file = dir.resolve("none.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ThreadSleep");
            r.start();
            Thread.sleep(1);
            r.stop();
            r.dump(file);
        }
        RecordingReader.read(file, a);
        assertThat(a.result()).isNull();
    }

    /** Two samples of four threads (the fourth idle) and the machine; with {@code problem}, one sample saying it. */
    private static Path record(Path dir, int excluded, String problem) throws Exception {
        FlightRecorder.register(ThreadCpuEvent.class);
        FlightRecorder.register(MachineCpuEvent.class);
        Path file = dir.resolve("steal.jfr");
        try (Recording r = new Recording()) {
            r.enable(EventNames.THREAD_CPU);
            r.enable(EventNames.MACHINE_CPU);
            r.start();
            if (problem != null) {
                MachineCpuEvent m = new MachineCpuEvent();
                m.sample = 1;
                m.problem = problem;
                m.commit();
            } else {
                sample(1, new long[] {50, 40, 10, 7}, 70, 30, excluded);
                Thread.sleep(2);
                sample(2, new long[] {60, 49, 11, 7}, 80, 40, excluded);
            }
            r.stop();
            r.dump(file);
        }
        return file;
    }

    private static void sample(long n, long[] threadMs, long busyMs, long stealMs, int excluded) {
        for (int i = 0; i < threadMs.length; i++) {
            ThreadCpuEvent t = new ThreadCpuEvent();
            t.sample = n;
            t.osTid = 101 + i;
            t.osName = "worker-" + (i + 1);
            t.cpuNanos = threadMs[i] * MS;
            t.commit();
        }
        MachineCpuEvent m = new MachineCpuEvent();
        m.sample = n;
        m.busyNanos = busyMs * MS;
        m.stealNanos = stealMs * MS;
        m.cpus = 2;
        m.threadTimesExcludeSteal = excluded;
        m.commit();
    }
}
