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
 * for attach: a JVM keeps the first agent jar it loaded).
 */
final class EmbeddedJars {
    private EmbeddedJars() {
    }

    static Path agent() {
        String override = System.getenv("LOCKSCOPE_AGENT_JAR");
        return override != null ? Path.of(override) : extract("lockscope-agent.jar");
    }

    static Path demo() {
        return extract("lockscope-demo.jar");
    }

    private static Path extract(String name) {
        String resource = "/META-INF/lockscope/" + name;
        try (InputStream in = EmbeddedJars.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UserError(name + " is missing from lockscope.jar; rebuild with ./lockscope (or mvn package)");
            }
            byte[] bytes = in.readAllBytes();
            CRC32 crc = new CRC32();
            crc.update(bytes);
            Path dir = Path.of(System.getProperty("java.io.tmpdir"), "lockscope-" + System.getProperty("user.name"));
            Files.createDirectories(dir);
            Path target = dir.resolve(name.replace(".jar", "-" + Long.toHexString(crc.getValue()) + ".jar"));
            if (!Files.exists(target) || Files.size(target) != bytes.length) {
                Path tmp = Files.createTempFile(dir, name, ".tmp");
                Files.write(tmp, bytes);
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return target;
        } catch (IOException e) {
            throw new UserError("cannot write " + name + " to the temp directory: " + e.getMessage());
        }
    }
}
