package dev.lockscope.e2e;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dynamic attach to a running demo, the live table with dump, and stop. Each test waits for the demo's first
 * worker thread (the JVM is then up and answers an attach) and, where it needs contention, polls the live table.
 */
class AttachAndDumpIT {
    @TempDir
    Path dir;
    private Proc target;

    @AfterEach
    void killTarget() {
        if (target != null) {
            target.process.destroyForcibly();
        }
    }

    @Test
    void attachDumpAndStop() throws Exception {
        target = Proc.start(dir, Proc.demoCommand(null, "frequent-juc", "--threads", "8", "--seconds", "120"));
        target.awaitThread("worker-0");
        long pid = target.process.pid();
        Path jfr = dir.resolve("attached.jfr");

        Proc attach = Proc.lockscope(dir, 60, "attach", Long.toString(pid), "-o", jfr.toString());
        assertThat(attach.exitCode()).as(attach.err()).isZero();
        assertThat(attach.err()).contains("profiling pid " + pid);

        Proc second = Proc.lockscope(dir, 60, "attach", Long.toString(pid), "-o", dir.resolve("second.jfr").toString());
        assertThat(second.exitCode()).as("a second attach is refused").isEqualTo(2);
        assertThat(second.err().strip()).isEqualTo("lockscope: pid " + pid + " is already being profiled into " + jfr
                + " (stop that first with lockscope attach " + pid + " --stop)");
        assertThat(dir.resolve("second.jfr")).doesNotExist();

        Proc dump = dumpUntil(pid, "dev.lockscope.demo.FrequentlyAcquired.jucFrequent");
        assertThat(dump.out()).contains("lock contention now (dump of pid " + pid + ")")
                .contains("ReentrantLock$NonfairSync").contains("dev.lockscope.demo.FrequentlyAcquired.jucFrequent");
        assertThat(target.err()).as("the table also goes to the target's stderr").contains("lock contention now");
        // issue 40: dump opens with the findings of its table, as report does
        assertThat(dump.out().indexOf("lockscope: top findings now (dump of pid " + pid + ")\n  - ")).as(dump.out())
                .isNotNegative().isLessThan(dump.out().indexOf("lock contention now (dump of pid"));

        Proc stop = Proc.lockscope(dir, 60, "attach", Long.toString(pid), "--stop");
        assertThat(stop.exitCode()).as(stop.err()).isZero();
        assertThat(stop.out()).contains("lock contention when profiling stopped").contains("ReentrantLock$NonfairSync");
        // issue 40: the first screen is report's: the findings, then the table
        assertThat(stop.out()).startsWith("top findings:\n  - ");
        assertThat(stop.out().indexOf("FrequentlyAcquired.jucFrequent")).as(stop.out())
                .isLessThan(stop.out().indexOf("lock contention when profiling stopped"));
        assertThat(Files.size(jfr)).isPositive();
        assertThat(target.process.isAlive()).as("the application keeps running").isTrue();
        // the stop has joined lockscope's threads (on JDK 24+ also the virtual-thread hooks' committer)
        assertThat(lockscopeThreads(pid)).as("lockscope threads left after --stop").isEmpty();

        Proc stopAgain = Proc.lockscope(dir, 60, "attach", Long.toString(pid), "--stop");
        assertThat(stopAgain.exitCode()).as("nothing left to stop").isEqualTo(2);
        assertThat(target.err()).doesNotContain("Exception");
    }

    @Test
    void dumpSinceWritesTheLastMinutesAndTheirReportWhileRecordingGoesOn() throws Exception {
        Path jfr = dir.resolve("running.jfr");
        target = Proc.start(dir, Proc.demoCommand("file=" + jfr, "large-cs-juc", "--threads", "8", "--seconds", "120"));
        target.awaitThread("worker-0");
        long pid = target.process.pid();
        dumpUntil(pid, "LargeCriticalSection.juc3");
        Path snap = dir.resolve("snap.jfr");
        Proc dump = Proc.lockscope(dir, 120, "dump", Long.toString(pid), "--since", "5m", "-o", snap.toString());
        assertThat(dump.exitCode()).as(dump.err()).isZero();
        assertThat(dump.out()).contains("lock contention now (dump of pid " + pid + ")");
        assertThat(dump.err()).contains("the last 5m of pid " + pid + "'s recording: " + snap)
                .contains("LargeCriticalSection.juc3").contains(dir.resolve("snap.html").toString());
        assertThat(Files.size(dir.resolve("snap.html"))).isPositive();
        Proc report = Proc.lockscope(dir, 120, "report", snap.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        assertThat(report.out()).contains("ReentrantLock$NonfairSync").contains("LargeCriticalSection.juc3");
        assertThat(target.process.isAlive()).as("the application keeps running").isTrue();
        Proc again = Proc.lockscope(dir, 60, "dump", Long.toString(pid));
        assertThat(again.exitCode()).as("still profiled after the snapshot: " + again.err()).isZero();

        Proc bad = Proc.lockscope(dir, 60, "dump", Long.toString(pid), "-o", snap.toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err().strip()).isEqualTo("lockscope: -o needs --since (the table alone is printed here)");
    }

    @Test
    void stopOfAJvmThatIsNotProfiled() throws Exception {
        target = Proc.start(dir, Proc.demoCommand(null, "frequent-juc", "--threads", "2", "--seconds", "120"));
        target.awaitThread("worker-0");
        Proc stop = Proc.lockscope(dir, 60, "attach", Long.toString(target.process.pid()), "--stop");
        assertThat(stop.exitCode()).isEqualTo(2);
        assertThat(stop.err().strip()).isEqualTo("lockscope: pid " + target.process.pid()
                + " is not being profiled (start with lockscope attach " + target.process.pid() + ")");
    }

    @Test
    void attachForADuration() throws Exception {
        target = Proc.start(dir, Proc.demoCommand(null, "large-cs-juc", "--threads", "8", "--seconds", "120"));
        target.awaitThread("worker-0");
        Path jfr = dir.resolve("timed.jfr");
        Proc attach = Proc.lockscope(dir, 60, "attach", Long.toString(target.process.pid()), "--duration", "3s", "-o", jfr.toString());
        assertThat(attach.exitCode()).as(attach.err()).isZero();
        assertThat(attach.out()).contains("lock contention when profiling stopped").contains("LargeCriticalSection.juc3");
        assertThat(Files.size(jfr)).isPositive();
        // the first screen is report's: the same findings, then the table
        Proc report = Proc.lockscope(dir, 60, "report", jfr.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        String findings = report.out().substring(0, report.out().indexOf("lockscope: lock contention in"));
        assertThat(findings).startsWith("top findings:\n  - ");
        assertThat(attach.out()).as("attach's first screen").startsWith(findings);
    }

    @Test
    void dumpOfAJvmThatIsNotProfiled() throws Exception {
        target = Proc.start(dir, Proc.demoCommand(null, "frequent-juc", "--threads", "2", "--seconds", "120"));
        target.awaitThread("worker-0");
        Proc dump = Proc.lockscope(dir, 60, "dump", Long.toString(target.process.pid()));
        assertThat(dump.exitCode()).isEqualTo(2);
        assertThat(dump.err().strip()).isEqualTo("lockscope: pid " + target.process.pid()
                + " is not being profiled (start with lockscope attach " + target.process.pid() + ")");
    }

    /** The names of the target's threads that are lockscope's (Linux shows 15 characters of a thread's name). */
    private static java.util.List<String> lockscopeThreads(long pid) throws java.io.IOException {
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.map(t -> {
                try {
                    return Files.readString(t.resolve("comm")).strip();
                } catch (java.io.IOException gone) {
                    return "";
                }
            }).filter(name -> name.startsWith("lockscope")).toList();
        }
    }

    /** {@code lockscope dump PID} until its table names {@code frame} (the contention has been recorded), the last dump. */
    private Proc dumpUntil(long pid, String frame) throws Exception {
        Proc[] last = new Proc[1];
        Proc.await(60, "a dump of pid " + pid + " naming " + frame, () -> {
            last[0] = Proc.lockscope(dir, 60, "dump", Long.toString(pid));
            assertThat(last[0].exitCode()).as(last[0].err()).isZero();
            return last[0].out().contains(frame);
        });
        return last[0];
    }
}
