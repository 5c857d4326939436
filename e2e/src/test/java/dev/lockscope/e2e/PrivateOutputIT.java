package dev.lockscope.e2e;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recordings hold every -D system property, stacks and thread names: lockscope creates them, their
 * snapshots and HTML reports 0600 (or the --file-mode asked for), and a symlink planted at a destination
 * is replaced, never written through (the file it points to keeps its content).
 */
class PrivateOutputIT {
    private static final String SECRET = "keep me";

    @TempDir
    Path dir;
    private Proc target;

    @AfterEach
    void killTarget() {
        if (target != null) {
            target.process.destroyForcibly();
        }
    }

    private static String mode(Path file) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    /** A file of someone else's that a link at one of lockscope's destinations points to. */
    private Path linkToVictim(Path link, String victimName) throws Exception {
        Path victim = Files.writeString(dir.resolve(victimName), SECRET);
        Files.createSymbolicLink(link, victim);
        return victim;
    }

    private void assertReplacedNotFollowed(Path link, Path victim) throws Exception {
        assertThat(Files.readAllBytes(victim)).as("the linked file " + victim).isEqualTo(SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(Files.isSymbolicLink(link)).as(link + " replaced").isFalse();
        assertThat(Files.size(link)).isPositive();
    }

    private Proc record(String... options) throws Exception {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("record"));
        args.addAll(java.util.List.of(options));
        args.addAll(java.util.List.of("-o", dir.resolve("run.jfr").toString(), "--", Proc.JAVA, "-cp", Proc.TEST_CLASSES,
                "dev.lockscope.e2e.SpinMain", "10"));
        return Proc.lockscope(dir, 120, args.toArray(String[]::new));
    }

    @Test
    void theRecordingAndItsReportAreOwnerOnlyAndALinkAtTheReportIsNotFollowed() throws Exception {
        Path html = dir.resolve("run.html");
        Path victim = linkToVictim(html, "victim.html");
        Proc run = record();
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(mode(dir.resolve("run.jfr"))).isEqualTo("rw-------");
        assertThat(mode(html)).isEqualTo("rw-------");
        assertReplacedNotFollowed(html, victim);
    }

    @Test
    void fileModeSharesTheRecordingAndReportForReading() throws Exception {
        Proc run = record("--file-mode", "0640");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(mode(dir.resolve("run.jfr"))).isEqualTo("rw-r-----");
        assertThat(mode(dir.resolve("run.html"))).isEqualTo("rw-r-----");

        Proc writable = record("--file-mode", "0666");
        assertThat(writable.exitCode()).isEqualTo(2);
        assertThat(writable.err().strip()).startsWith("lockscope: --file-mode must be an octal mode").doesNotContain("\n");
    }

    /** demo and attach record into an existing path (no newFile): JFR's own write of it followed the link. */
    @Test
    void aLinkAtTheRecordingIsReplacedNotFollowed() throws Exception {
        Path jfr = dir.resolve("demo.jfr");
        Path victim = linkToVictim(jfr, "victim.jfr");
        Proc demo = Proc.lockscope(dir, 120, "demo", "frequent-juc", "--threads", "2", "--seconds", "1", "-o", jfr.toString());
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        assertReplacedNotFollowed(jfr, victim);
        assertThat(mode(jfr)).isEqualTo("rw-------");
        assertThat(mode(dir.resolve("demo.html"))).isEqualTo("rw-------");
    }

    @Test
    void aDumpSnapshotAndItsReportAreOwnerOnlyAndLinksThereAreNotFollowed() throws Exception {
        Path jfr = dir.resolve("running.jfr");
        target = Proc.start(dir, Proc.demoCommand("file=" + jfr, "large-cs-juc", "--threads", "4", "--seconds", "120"));
        Path snap = dir.resolve("snap.jfr");
        Path html = dir.resolve("snap.html");
        Path victim = linkToVictim(snap, "victim.jfr");
        Path htmlVictim = linkToVictim(html, "victim.html");
        // poll until the agent runs and JFR has a chunk to give
        long deadline = System.nanoTime() + 60_000_000_000L;
        Proc dump;
        do {
            dump = Proc.lockscope(dir, 120, "dump", Long.toString(target.process.pid()), "--since", "5m", "-o", snap.toString());
        } while (dump.exitCode() != 0 && System.nanoTime() < deadline);
        assertThat(dump.exitCode()).as(dump.err()).isZero();
        assertReplacedNotFollowed(snap, victim);
        assertReplacedNotFollowed(html, htmlVictim);
        assertThat(mode(snap)).isEqualTo("rw-------");
        assertThat(mode(html)).isEqualTo("rw-------");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no part file left").noneMatch(n -> n.endsWith(".part"));
        }
    }
}
