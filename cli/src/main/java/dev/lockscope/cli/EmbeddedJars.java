package dev.lockscope.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.CRC32;

/**
 * The agent and demo jars travel inside lockscope.jar; a target JVM needs them as files. They are
 * written once per content to a cache directory, so repeated runs reuse the same path (which matters
 * for attach: a JVM keeps the first agent jar it loaded). The agent gets a folder of its own per content,
 * with its boot jar beside it as lockscope-boot.jar, where its manifest's Boot-Class-Path finds it (the
 * JVM then appends it before class-data sharing is set up, which keeps sharing on).
 */
final class EmbeddedJars {
    private EmbeddedJars() {
    }

    static Path agent() {
        String override = System.getenv("LOCKSCOPE_AGENT_JAR");
        if (override != null) {
            return Path.of(override);
        }
        byte[] agent = read("lockscope-agent.jar");
        Path dir = cacheDir().resolve("agent-" + crc(agent));
        try (var jar = new java.util.zip.ZipInputStream(new java.io.ByteArrayInputStream(agent))) {
            for (var e = jar.getNextEntry(); e != null; e = jar.getNextEntry()) {
                if (e.getName().equals("META-INF/lockscope/lockscope-boot.jar")) {
                    write(dir.resolve("lockscope-boot.jar"), jar.readAllBytes());
                    return write(dir.resolve("lockscope-agent.jar"), agent);
                }
            }
        } catch (IOException e) {
            throw new UserError("cannot read lockscope-agent.jar inside lockscope.jar: " + e.getMessage());
        }
        throw new UserError("lockscope-boot.jar is missing from the agent jar; rebuild with ./lockscope (or mvn package)");
    }

    static Path demo() {
        return extract("lockscope-demo.jar");
    }

    private static Path extract(String name) {
        byte[] bytes = read(name);
        return write(cacheDir().resolve(name.replace(".jar", "-" + crc(bytes) + ".jar")), bytes);
    }

    private static byte[] read(String name) {
        try (InputStream in = EmbeddedJars.class.getResourceAsStream("/META-INF/lockscope/" + name)) {
            if (in == null) {
                throw new UserError(name + " is missing from lockscope.jar; rebuild with ./lockscope (or mvn package)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UserError("cannot read " + name + " inside lockscope.jar: " + e.getMessage());
        }
    }

    private static String crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return Long.toHexString(crc.getValue());
    }

    private static Path cacheDir() {
        return Path.of(System.getProperty("java.io.tmpdir"), "lockscope-" + System.getProperty("user.name"));
    }

    /** {@code target} with {@code bytes}, written unless a file of that size is there already. */
    private static Path write(Path target, byte[] bytes) {
        try {
            Files.createDirectories(target.getParent());
            if (!Files.exists(target) || Files.size(target) != bytes.length) {
                Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
                Files.write(tmp, bytes);
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return target;
        } catch (IOException e) {
            throw new UserError("cannot write " + target.getFileName() + " to the temp directory: " + e.getMessage());
        }
    }
}
