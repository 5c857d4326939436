package dev.lockscope.e2e;

import dev.lockscope.analysis.model.LockRecording;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each fault that broke applications under lockscope (issue 17), injected for real: the application's
 * output and exit code must be those of the same run without lockscope, and the recording must be
 * readable. Runs on the JDK of {@code -Dlockscope.test.java} (scripts/test.sh: 17 and 25).
 */
class FaultInjectionIT {
    @TempDir
    Path dir;
    private Path mounted;

    @AfterEach
    void unmount() throws Exception {
        if (mounted != null) {
            // lazily: this JVM's reader may still map a chunk of the recording there until a GC unmaps it
            new ProcessBuilder("umount", "-l", mounted.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * JFR shuts the JVM down when a write to its repository fails ("An irrecoverable error in Jfr",
     * exit 1). JFR's repository and the recording lie on a 64 MB tmpfs; once the agent has started,
     * the test fills the tmpfs up to 18 MB free (something else filling the disk) while a park storm
     * records. The disk guard must stop the recording, say so in one line, and leave a readable file.
     * Every park recorded ({@code sampleBelow=0}): sampled by length at the default, the storm's short
     * parks wrote too little for the copy of the recording to come near the 18 MB left, and the guard
     * rightly let it run on.
     */
    @Test
    void fullDiskStopsTheRecordingNotTheApplication() throws Exception {
        Path small = Files.createDirectories(dir.resolve("small"));
        Assumptions.assumeTrue(mountTmpfs(small, "64m"), "needs root to mount a 64 MB tmpfs");
        mounted = small;
        Path jfr = small.resolve("full.jfr");
        List<String> app = List.of("-cp", System.getProperty("java.class.path"), ParkStorm.class.getName(), "12");
        Proc bare = Proc.run(dir, 120, java(List.of(), app));
        Proc profiled = Proc.start(dir, java(List.of("-XX:FlightRecorderOptions:repository=" + small.resolve("repo"),
                "-javaagent:" + Proc.AGENT_JAR + "=file=" + jfr + ",report=off,sampleBelow=0"), app));
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!profiled.err().contains("lockscope: recording lock contention") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Files.write(small.resolve("filler"), new byte[46 << 20]);
        assertThat(profiled.process.waitFor(120, TimeUnit.SECONDS)).isTrue();

        assertThat(bare.exitCode()).isEqualTo(7);
        assertThat(profiled.exitCode()).as(profiled.err()).isEqualTo(bare.exitCode());
        assertThat(profiled.out()).isEqualTo(bare.out());
        assertThat(profiled.err()).doesNotContain("irrecoverable")
                .contains("lockscope: stopped recording: the disk is nearly full");
        assertReadable(jfr);
    }

    /**
     * JFR's repository on a 2 MB tmpfs: under a park storm JFR ended the VM within 2.5 s ("An
     * irrecoverable error in Jfr", exit 1) before the disk guard's first check. The agent now refuses to
     * start a recording there, in one line, and the application runs as without lockscope.
     */
    @Test
    void aTinyRepositoryFilesystemLeavesTheApplicationAlone() throws Exception {
        Path tiny = Files.createDirectories(dir.resolve("tiny"));
        Assumptions.assumeTrue(mountTmpfs(tiny, "2m"), "needs root to mount a 2 MB tmpfs");
        mounted = tiny;
        List<String> app = List.of("-cp", System.getProperty("java.class.path"), ParkStorm.class.getName(), "12");
        Proc bare = Proc.run(dir, 120, java(List.of(), app));
        Proc profiled = Proc.run(dir, 120, java(List.of("-XX:FlightRecorderOptions:repository=" + tiny.resolve("repo"),
                "-javaagent:" + Proc.AGENT_JAR + "=file=" + dir.resolve("tiny.jfr") + ",report=off,sampleBelow=0"), app));

        assertThat(bare.exitCode()).isEqualTo(7);
        assertThat(profiled.exitCode()).as(profiled.err()).isEqualTo(bare.exitCode());
        assertThat(profiled.out()).isEqualTo(bare.out());
        assertThat(profiled.err()).doesNotContain("irrecoverable")
                .containsPattern("lockscope: could not start: the disk is nearly full: [0-9.]+ MB free where JFR keeps its chunks");
    }

    /** {@code record} of a non-java command passes the agent in JAVA_TOOL_OPTIONS, quoted. */
    @Test
    void spacesInTheRecordingPathTheWorkingDirectoryAndTheTempDirectory() throws Exception {
        Path spaced = Files.createDirectories(dir.resolve("my dir"));
        Path jfr = spaced.resolve("out put.jfr");
        String app = String.join(" ", Proc.JAVA, "-cp", "'" + System.getProperty("java.class.path") + "'",
                ParkStorm.class.getName(), "1");
        Proc bare = Proc.run(spaced, 60, List.of("sh", "-c", app));
        Proc record = Proc.run(spaced, 120, lockscope(spaced.resolve("tmp dir"), "record", "--no-html", "-o", jfr.toString(),
                "--", "sh", "-c", app));
        assertThat(record.exitCode()).as(record.err()).isEqualTo(bare.exitCode()).isEqualTo(7);
        assertThat(record.out()).isEqualTo(bare.out());
        assertReadable(jfr);
    }

    /**
     * Two JVMs under one wrapper: the first keeps the name, the other writes NAME-PID.jfr and says so; the first's
     * report is record's, the other's table its own.
     */
    @Test
    void eachJvmOfAWrapperGetsItsOwnFile() throws Exception {
        String app = String.join(" ", Proc.JAVA, "-cp", System.getProperty("java.class.path"), ParkStorm.class.getName(), "1");
        Proc record = Proc.run(dir, 120, lockscope(dir, "record", "--no-html", "-o", "run.jfr", "--",
                "sh", "-c", app + " & " + app + "; wait"));
        assertThat(record.err()).contains("is another JVM's recording of this command");
        // the JVM that kept run.jfr prints no table at exit: record prints run.jfr's report after the command, its
        // findings first and its table after them; the other JVM prints its own table at exit
        assertThat(record.err().split("lockscope: lock contention at JVM exit", -1)).as(record.err()).hasSize(2);
        int findings = record.err().indexOf("top findings:");
        assertThat(findings).as(record.err()).isNotNegative().isLessThan(record.err().indexOf("lockscope: lock contention in run.jfr"));
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().matches("run(-\\d+)?\\.jfr")).sorted().toList();
        }
        assertThat(files).hasSize(2);
        for (Path f : files) {
            assertReadable(f);
        }
    }

    /** A small heap: lockscope's agent must not be what runs it out of memory. */
    @Test
    void smallHeap() throws Exception {
        List<String> app = List.of("-Xmx16m", "-cp", System.getProperty("java.class.path"), ParkStorm.class.getName(), "2");
        Proc bare = Proc.run(dir, 60, java(List.of(), app));
        Proc profiled = Proc.run(dir, 60, java(List.of("-javaagent:" + Proc.AGENT_JAR + "=file=" + dir.resolve("small-heap.jfr")), app));
        assertThat(profiled.exitCode()).as(profiled.err()).isEqualTo(bare.exitCode()).isEqualTo(7);
        assertThat(profiled.out()).isEqualTo(bare.out());
        assertThat(profiled.err()).doesNotContain("OutOfMemoryError");
    }

    /** A report that could not be written is an error, not exit 0. */
    @Test
    void outputToAFullDeviceIsAnError() throws Exception {
        Path jfr = dir.resolve("small.jfr");
        Proc.run(dir, 60, java(List.of("-javaagent:" + Proc.AGENT_JAR + "=file=" + jfr + ",report=off"),
                List.of("-cp", System.getProperty("java.class.path"), ParkStorm.class.getName(), "1")));
        List<String> cmd = lockscope(dir, "report", jfr.toString());
        Path err = dir.resolve("report-err.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(new File("/dev/full")).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isNotZero();
        assertThat(Files.readString(err).strip()).isEqualTo("lockscope: could not write the output (disk full or closed pipe?)");
    }

    /**
     * Read by lockscope's reader, with lockscope's events in it. Unparks, not parks: on JDK 25 a
     * SynchronousQueue parks with LockSupport.park() after setCurrentBlocker, which lockscope does not see.
     */
    private static void assertReadable(Path jfr) throws Exception {
        assertThat(LockRecording.collect(jfr).unparks()).as(jfr.toString()).isNotEmpty();
    }

    private static List<String> java(List<String> jvmOptions, List<String> app) {
        List<String> cmd = new ArrayList<>(List.of(Proc.JAVA));
        cmd.addAll(jvmOptions);
        cmd.addAll(app);
        return cmd;
    }

    /** {@code java -Djava.io.tmpdir=TMP -jar lockscope.jar args} (the extracted agent jar then lies in TMP). */
    private static List<String> lockscope(Path tmp, String... args) throws IOException {
        Files.createDirectories(tmp);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp, "-jar", Proc.LOCKSCOPE_JAR.toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static boolean mountTmpfs(Path at, String size) throws Exception {
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", at.toString())
                .redirectErrorStream(true).start();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
