package dev.lockscope.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A recording that reached its {@code maxSize} holds the run's latest part only, and the agent says so:
 * once when it stops, and in the exit table, whose {@code synchronized} rows are read from that
 * recording (its park rows are the agent's own tallies of the whole run). JFR's chunks are 1 MB here
 * ({@code maxchunksize}, JFR's least) and the cap 1 MB, so the first full chunk is dropped when the
 * second one ends; 16 threads park on one lock every few microseconds, each park recorded with its
 * stack ({@code sampleBelow=0}), which writes several MB in 10 s (5.7 MB in 6 s on the shared 2-core machine).
 */
class RecordingCapIT {
    @TempDir
    Path dir;

    @Test
    void aTrimmedRecordingIsNamedAtStopAndInTheExitTable() throws Exception {
        Path recording = dir.resolve("capped.jfr");
        Proc run = Proc.run(dir, 120, List.of(Proc.JAVA, "-XX:FlightRecorderOptions:maxchunksize=1M",
                "-javaagent:" + Proc.AGENT_JAR + "=file=" + recording + ",maxSize=1m,sampleBelow=0",
                "-cp", Proc.DEMO_JAR.toString(), "dev.lockscope.demo.DemoMain", "scale-global-lock",
                "--threads", "16", "--seconds", "10", "--parallel-us", "1", "--critical-us", "1"));
        assertThat(run.exitCode()).as(run.err()).isZero();
        String err = run.err();
        assertThat(err).contains("lockscope: the recording reached its cap (maxSize 1m, maxAge 1d): it holds the latest part of the run only");
        // the table's note, wrapped to the table's width with nothing cut off
        String table = err.substring(err.indexOf("lockscope: lock contention at JVM exit"));
        assertThat(table.replaceAll("\\s+", " ")).contains(
                "the synchronized rows count the monitor waits in the recording's latest part only (it reached its cap)");
        assertThat(table.lines()).allSatisfy(line -> assertThat(line).doesNotEndWith("..."));
    }
}
