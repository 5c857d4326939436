package dev.lockscope.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class AnalysisSpeedHarnessTest {
    @Test
    void peakHeapIsTheLargestOccupancyAfterAGc(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("gc.log");
        Files.writeString(log, """
                [0.010s][info][gc] Using G1
                [0.512s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 4.101ms
                [1.204s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 205M->129M(256M) 18.319ms
                [1.300s][info][gc] GC(2) Pause Young (Mixed) (G1 Evacuation Pause) 140M->122M(256M) 9.0ms
                """);
        assertThat(AnalysisSpeedHarness.peakHeapAfterGc(log)).isEqualTo(129);
    }

    @Test
    void afterAFullGcThePeakIsWhatFullGcsLeft(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("gc.log");
        Files.writeString(log, """
                [0.010s][info][gc] Using Serial
                [0.512s][info][gc] GC(0) Pause Young (Allocation Failure) 70M->60M(247M) 4.101ms
                [1.204s][info][gc] GC(1) Pause Young (Allocation Failure) 245M->240M(247M) 18.319ms
                [1.300s][info][gc] GC(2) Pause Full (Allocation Failure) 246M->81M(247M) 90.0ms
                [1.800s][info][gc] GC(3) Pause Full (Allocation Failure) 246M->77M(247M) 90.0ms
                """);
        assertThat(AnalysisSpeedHarness.peakHeapAfterGc(log)).isEqualTo(81);
    }

    @Test
    void noGcMeansNoHeapReading(@TempDir Path dir) throws Exception {
        assertThat(AnalysisSpeedHarness.peakHeapAfterGc(dir.resolve("missing.log"))).isZero();
        Path log = dir.resolve("gc.log");
        Files.writeString(log, "[0.010s][info][gc] Using G1\n");
        assertThat(AnalysisSpeedHarness.peakHeapAfterGc(log)).isZero();
    }

    @Test
    void jfrSummarysRowsGiveAllEventsAndTheJdkLockEventsTheConverterReads() {
        String summary = """
                 Version: 2.1
                 Chunks: 1
                 Start: 2026-12-02 10:29:43 (UTC)

                 Event Type                          Count  Size (bytes)
                ==========================================================
                 jdk.JavaMonitorWait               228412      6852360
                 lockscope.Unpark                   14031       238527
                 jdk.JavaMonitorEnter                 846        25380
                 jdk.ThreadPark                        12          360
                 jdk.Metadata                           1        91234
                """;
        assertThat(AnalysisSpeedHarness.summaryCounts(summary)).containsExactly(228412 + 14031 + 846 + 12 + 1, 846 + 12);
    }

    @Test
    void lockscopeRunsWithTheLaunchersOptionsCommentsSkipped(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("cli"));
        Files.writeString(root.resolve(AnalysisSpeedHarness.LAUNCHER_OPTIONS), "# why\n-XX:+UseSerialGC\n\n  # more\n-XX:MaxInlineLevel=6\n");
        assertThat(AnalysisSpeedHarness.launcherOptions(root)).containsExactly("-XX:+UseSerialGC", "-XX:MaxInlineLevel=6");
    }

    @Test
    void theProjectsLauncherOptionsChooseTheSerialCollector() throws Exception {
        assertThat(AnalysisSpeedHarness.launcherOptions(Path.of("..").toAbsolutePath().normalize()))
                .contains("-XX:+UseSerialGC").allMatch(o -> o.startsWith("-XX:"));
    }
}
