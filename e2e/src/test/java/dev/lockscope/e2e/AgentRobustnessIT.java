package dev.lockscope.e2e;

import dev.lockscope.analysis.model.LockRecording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent never breaks the application, bounds its memory, and leaves a complete recording. */
class AgentRobustnessIT {
    @TempDir
    Path dir;

    @Test
    void unknownOptionLeavesTheApplicationRunningWithProfilingOff() throws Exception {
        Proc run = Proc.run(dir, 60, Proc.demoCommand("bogus=1", "frequent-juc", "--threads", "2", "--seconds", "0.5"));
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("throughput:");
        assertThat(run.err()).contains("lockscope: unknown agent option 'bogus'").contains("profiling is off")
                .doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void badOptionValueIsOneLine() throws Exception {
        Proc run = Proc.run(dir, 60, Proc.demoCommand("threshold=soon", "frequent-juc", "--threads", "2", "--seconds", "0.5"));
        assertThat(run.exitCode()).isZero();
        assertThat(run.err().lines().filter(l -> l.startsWith("lockscope:")))
                .containsExactly("lockscope: agent option threshold must be a duration such as 0, 10us, 20ms, 5s, 2m, 1h or 1d, not 'soon'; profiling is off");
    }

    /**
     * The agent's one compiler directive (WriterInlining): in the compiles of lockscope's park-event commits, and
     * only there, C2 calls JFR's field writers instead of inlining them. Without it each commit compiled to about
     * 8 KB of bytecode (docs/agent-cost.md).
     */
    @Test
    void theAgentAddsOneCompilerDirectiveMatchingItsOwnCommitsOnly() throws Exception {
        Proc run = Proc.run(dir, 60, List.of(Proc.JAVA, "-javaagent:" + Proc.AGENT_JAR + "=file=" + dir.resolve("directive.jfr"),
                "-cp", System.getProperty("java.class.path"), DirectivesMain.class.getName()));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).doesNotContain("stay inlined");
        String added = run.out().substring(0, Math.max(0, run.out().indexOf("Directive: (default)")));
        assertThat(added).contains("dev/lockscope/agent/boot/ParkHooks.commit", "dev/lockscope/agent/boot/ParkEvent.commit",
                "-jdk/jfr/internal/");
        assertThat(added).doesNotContain("*.*");
    }

    @Test
    void recordingIsCompleteAfterSigterm() throws Exception {
        Path jfr = dir.resolve("term.jfr");
        Proc p = Proc.start(dir, Proc.demoCommand("file=" + jfr, "frequent-juc", "--threads", "8", "--seconds", "120"));
        waitForParks(p);
        p.process.destroy(); // SIGTERM
        assertThat(p.process.waitFor(60, TimeUnit.SECONDS)).as("JVM exits after SIGTERM").isTrue();
        assertThat(p.err()).contains("lockscope: lock contention at JVM exit");
        LockRecording rec = LockRecording.collect(jfr);
        assertThat(rec.parks()).as("park events in the recording").isNotEmpty();
        assertThat(rec.unparks()).isNotEmpty();
    }

    @Test
    void recordingIsCompleteAfterNormalExitOnSystemExit() throws Exception {
        Path jfr = dir.resolve("exit.jfr");
        Proc run = Proc.run(dir, 60, Proc.demoCommand("file=" + jfr, "frequent-juc", "--threads", "4", "--seconds", "1"));
        assertThat(run.exitCode()).isZero();
        LockRecording rec = LockRecording.collect(jfr);
        assertThat(rec.parks()).isNotEmpty();
        assertThat(rec.parks()).allSatisfy(p -> assertThat(p.frames()).isNotEmpty());
    }

    @Test
    void liveRecordsStayBoundedAndDeadBlockersAreFreedOnPrint() throws Exception {
        Path jfr = dir.resolve("many.jfr");
        List<String> cmd = new ArrayList<>(List.of(Proc.JAVA,
                // sampleBelow=0: every park recorded, so the recording's count is exact (some of these parks
                // last under 10 us, and by default only a sample of those is recorded)
                "-javaagent:" + Proc.AGENT_JAR + "=file=" + jfr + ",maxBlockers=50,freeOnPrint,sampleBelow=0",
                "-cp", System.getProperty("java.class.path"), ManyBlockers.class.getName(), "400"));
        Proc run = Proc.run(dir, 60, cmd);
        assertThat(run.exitCode()).as(run.err()).isZero();
        // 400 short-lived blockers, each parked on once: only 50 live records, the rest counted.
        assertThat(run.err()).contains("parks on blockers beyond maxBlockers=50 are in the recording only");
        long tableRows = run.err().lines().filter(l -> l.matches("\\s+\\d+\\s+park\\s.*")).count();
        assertThat(tableRows).isBetween(1L, 50L);
        assertThat(LockRecording.collect(jfr).parks()).hasSizeGreaterThanOrEqualTo(400);
    }

    /**
     * Waits until the agent has started (its start line; JVM start-up takes seconds on a loaded machine) and its live
     * table, asked for with {@code lockscope dump}, has the demo's lock.
     */
    private void waitForParks(Proc p) throws Exception {
        Proc.await(60, "the agent's start line", () -> {
            assertThat(p.process.isAlive()).as("still running; stderr: %s", p.err()).isTrue();
            return p.err().contains("lockscope: recording lock contention");
        });
        Proc.await(60, "parks on the demo's lock in the live table", () -> {
            Proc dump = Proc.lockscope(dir, 60, "dump", Long.toString(p.process.pid()));
            assertThat(dump.exitCode()).as(dump.err()).isZero();
            return dump.out().contains("ReentrantLock$NonfairSync");
        });
    }

    /** A workload that parks once on each of N fresh blockers (CountDownLatches). */
    public static final class ManyBlockers {
        public static void main(String[] args) throws Exception {
            int n = Integer.parseInt(args[0]);
            for (int i = 0; i < n; i++) {
                // a semaphore, not a latch: a latch's await is an idle place, which the table leaves out
                java.util.concurrent.Semaphore permit = new java.util.concurrent.Semaphore(0);
                Thread t = new Thread(() -> {
                    try {
                        permit.acquire();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                t.start();
                while (t.getState() != Thread.State.WAITING) {
                    Thread.onSpinWait();
                }
                permit.release();
                t.join();
            }
        }
    }
}
