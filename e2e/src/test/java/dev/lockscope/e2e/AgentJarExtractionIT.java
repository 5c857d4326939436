package dev.lockscope.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CLI writes the agent jar to {@code <java.io.tmpdir>/lockscope-<user>/}, a name anyone can predict: a
 * directory planted there by another user, or writable by others, is refused, and a jar of the same name
 * and size but other content is replaced before any JVM loads it. {@link PlantedAgent} never runs.
 */
class AgentJarExtractionIT {
    private static final int NOBODY = 65534;

    @TempDir
    Path dir;

    /** {@code lockscope record} of a short program, with {@code tmpdir} as the CLI's temp directory. */
    private Proc record(Path tmpdir, Path jfr) throws IOException, InterruptedException {
        return Proc.run(dir, 120, List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmpdir, "-jar", Proc.LOCKSCOPE_JAR.toString(), "record", "--no-html", "-o", jfr.toString(),
                "--", Proc.JAVA, "-cp", Proc.TEST_CLASSES, "dev.lockscope.e2e.SpinMain", "10"));
    }

    private static Path cacheDir(Path tmpdir) {
        return tmpdir.resolve("lockscope-" + System.getProperty("user.name"));
    }

    /** The agent jar as lockscope writes it into an empty temp directory: its name is all the planter needs. */
    private Path extracted() throws Exception {
        Path clean = Files.createDirectories(dir.resolve("clean"));
        Proc first = record(clean, dir.resolve("first.jfr"));
        assertThat(first.exitCode()).as(first.err()).isZero();
        try (var jars = Files.walk(cacheDir(clean))) {
            // the agent has a folder of its own, agent-<sha256>/, with its boot jar beside it
            return jars.filter(p -> p.getFileName().toString().equals("lockscope-agent.jar")).findFirst().orElseThrow();
        }
    }

    /** Where {@code realJar}, extracted into the clean temp directory, stands in lockscope's directory of {@code tmpdir}. */
    private Path sameNameIn(Path tmpdir, Path realJar) {
        return cacheDir(tmpdir).resolve(cacheDir(dir.resolve("clean")).relativize(realJar));
    }

    /** A temp directory holding lockscope's directory with {@link PlantedAgent} as the agent jar, the same name and size. */
    private Path planted(Path realJar) throws Exception {
        Path tmpdir = Files.createDirectories(dir.resolve("shared-tmp"));
        Files.createDirectory(cacheDir(tmpdir));
        Path jar = sameNameIn(tmpdir, realJar);
        Files.createDirectories(jar.getParent());
        Files.write(jar, jarOfSize(Files.size(realJar)));
        assertThat(Files.size(jar)).isEqualTo(Files.size(realJar));
        // the boot jar beside it, which the agent's Boot-Class-Path names, is planted too
        Path boot = realJar.resolveSibling("lockscope-boot.jar");
        Files.write(jar.resolveSibling(boot.getFileName()), jarOfSize(Files.size(boot)));
        return tmpdir;
    }

    /** A jar whose Premain-Class and Agent-Class are {@link PlantedAgent}, padded to exactly {@code size} bytes. */
    private static byte[] jarOfSize(long size) throws IOException {
        byte[] unpadded = plantedJar(0);
        return plantedJar((int) (size - unpadded.length));
    }

    private static byte[] plantedJar(int padding) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Premain-Class", PlantedAgent.class.getName());
        manifest.getMainAttributes().putValue("Agent-Class", PlantedAgent.class.getName());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest)) {
            String name = PlantedAgent.class.getName().replace('.', '/') + ".class";
            jar.putNextEntry(new JarEntry(name));
            jar.write(Files.readAllBytes(Path.of(Proc.TEST_CLASSES, name)));
            jar.closeEntry();
            // stored, sizes given up front: the jar grows by exactly the padding
            byte[] pad = new byte[padding];
            CRC32 crc = new CRC32();
            crc.update(pad);
            ZipEntry padEntry = new ZipEntry("padding");
            padEntry.setMethod(ZipEntry.STORED);
            padEntry.setSize(padding);
            padEntry.setCompressedSize(padding);
            padEntry.setCrc(crc.getValue());
            jar.putNextEntry(padEntry);
            jar.write(pad);
            jar.closeEntry();
        }
        return bytes.toByteArray();
    }

    private void assertPlantedNeverRan() {
        assertThat(dir.resolve(PlantedAgent.MARKER)).as("the planted agent ran").doesNotExist();
    }

    @Test
    void aDirectoryOfAnotherUserIsRefusedWithOneLine() throws Exception {
        Path real = extracted();
        Path tmpdir = planted(real);
        Path cache = cacheDir(tmpdir);
        try {
            Path jar = sameNameIn(tmpdir, real);
            Files.setAttribute(jar, "unix:uid", NOBODY);
            Files.setAttribute(jar.resolveSibling("lockscope-boot.jar"), "unix:uid", NOBODY);
            Files.setAttribute(jar.getParent(), "unix:uid", NOBODY);
            Files.setAttribute(cache, "unix:uid", NOBODY);
        } catch (IOException notRoot) {
            assumeTrue(false, "giving a directory to another user needs root: " + notRoot);
        }
        Proc run = record(tmpdir, dir.resolve("run.jfr"));
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err().strip()).startsWith("lockscope: " + cache + " is not a private directory of ")
                .contains("owned by nobody").doesNotContain("\n");
        assertPlantedNeverRan();
    }

    @Test
    void aDirectoryOthersCanWriteIsRefused() throws Exception {
        Path tmpdir = planted(extracted());
        Files.setPosixFilePermissions(cacheDir(tmpdir), PosixFilePermissions.fromString("rwxrwxrwx"));
        Proc run = record(tmpdir, dir.resolve("run.jfr"));
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err().strip()).startsWith("lockscope: " + cacheDir(tmpdir) + " is not a private directory of ")
                .contains("rwxrwxrwx").doesNotContain("\n");
        assertPlantedNeverRan();
    }

    @Test
    void aJarOfTheSameNameAndSizeButOtherContentIsReplacedBeforeUse() throws Exception {
        Path real = extracted();
        Path tmpdir = planted(real);
        Files.setPosixFilePermissions(cacheDir(tmpdir), PosixFilePermissions.fromString("rwx------"));
        Proc run = record(tmpdir, dir.resolve("run.jfr"));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertPlantedNeverRan();
        assertThat(Files.size(dir.resolve("run.jfr"))).as("lockscope's own agent recorded").isPositive();
        Path jar = sameNameIn(tmpdir, real);
        assertThat(Files.readAllBytes(jar)).isEqualTo(Files.readAllBytes(real));
        assertThat(Files.readAllBytes(jar.resolveSibling("lockscope-boot.jar")))
                .isEqualTo(Files.readAllBytes(real.resolveSibling("lockscope-boot.jar")));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(jar))).isEqualTo("rw-r--r--");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cacheDir(tmpdir))))
                .as("others may pass, to read the jar (a target JVM of another user), but not list or write").isEqualTo("rwx--x--x");
    }
}
