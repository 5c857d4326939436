package dev.lockscope.cli;

import dev.lockscope.core.OutputFiles;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;

/**
 * The agent and demo jars travel inside lockscope.jar; a JVM needs them as files. They are written once
 * per content to lockscope's directory in the temp directory, so repeated runs reuse the same path
 * (which matters for attach: a JVM keeps the first agent jar it loaded). The name is predictable, so
 * anyone could create that directory or a jar in it first: the directory must be this user's and
 * writable by no one else, and a jar is used only when its SHA-256 is that of the embedded one. The
 * agent gets a folder of its own per content, with its boot jar beside it as lockscope-boot.jar, where
 * its manifest's Boot-Class-Path finds it (the JVM then appends it before class-data sharing is set up,
 * which keeps sharing on); that folder is held to the same rules.
 */
final class EmbeddedJars {
    /**
     * The directory's mode: others may pass through it but not list or write it, since the JVM that
     * {@code attach} loads the agent into may run as another user (root attaching) and must read the jar.
     */
    private static final int DIRECTORY_MODE = 0711;
    /** The jars' mode: readable by that JVM, writable by us only. */
    private static final int JAR_MODE = 0644;

    private EmbeddedJars() {
    }

    static Path agent() {
        String override = System.getenv("LOCKSCOPE_AGENT_JAR");
        if (override != null) {
            return Path.of(override);
        }
        byte[] agent = read("lockscope-agent.jar");
        byte[] sha256 = sha256(agent);
        Path dir = privateDirectory(directory().resolve("agent-" + HexFormat.of().formatHex(sha256, 0, 8)));
        try (var jar = new java.util.zip.ZipInputStream(new java.io.ByteArrayInputStream(agent))) {
            for (var e = jar.getNextEntry(); e != null; e = jar.getNextEntry()) {
                if (e.getName().equals("META-INF/lockscope/lockscope-boot.jar")) {
                    byte[] boot = jar.readAllBytes();
                    place(dir.resolve("lockscope-boot.jar"), boot, sha256(boot));
                    return place(dir.resolve("lockscope-agent.jar"), agent, sha256);
                }
            }
        } catch (IOException e) {
            throw new UserError("cannot read lockscope-agent.jar inside lockscope.jar: " + e.getMessage());
        }
        throw new UserError("lockscope-boot.jar is missing from the agent jar; rebuild with ./lockscope (or mvn package)");
    }

    static Path demo() {
        return extract("lockscope-demo.jar", directory());
    }

    /**
     * {@code <java.io.tmpdir>/lockscope-<user>}, created with mode 0711, or refused with one line when it
     * is there but another user's, group- or world-writable, or not a directory (a symlink).
     */
    static Path directory() {
        return privateDirectory(Path.of(System.getProperty("java.io.tmpdir"), "lockscope-" + System.getProperty("user.name")).toAbsolutePath());
    }

    /** {@code dir} created with mode 0711, or refused with one line when it is there but not a private directory of ours. */
    private static Path privateDirectory(Path dir) {
        try {
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OutputFiles.permissions(0700)));
            } catch (FileAlreadyExistsException there) {
                // checked below, like one just made
            }
            PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            Set<PosixFilePermission> mode = a.permissions();
            if (!a.isDirectory() || !onlyOurs(a)) {
                throw new UserError(dir + " is not a private directory of " + currentUser().getName() + " ("
                        + (a.isSymbolicLink() ? "a symlink" : a.isDirectory() ? "a directory" : "a file") + " owned by "
                        + a.owner().getName() + ", mode " + PosixFilePermissions.toString(mode)
                        + "): another user may have planted it to run code as you; remove it and run lockscope again");
            }
            if (!mode.equals(OutputFiles.permissions(DIRECTORY_MODE))) {
                Files.setPosixFilePermissions(dir, OutputFiles.permissions(DIRECTORY_MODE));
            }
            return dir;
        } catch (IOException | UnsupportedOperationException e) {
            throw new UserError("cannot make the directory " + dir + " for lockscope's jars: " + e.getMessage());
        }
    }

    /** Whether only this user (and root) can change it: ours, and neither group nor others may write. */
    private static boolean onlyOurs(PosixFileAttributes a) throws IOException {
        Set<PosixFilePermission> mode = a.permissions();
        return a.owner().equals(currentUser()) && !mode.contains(PosixFilePermission.GROUP_WRITE)
                && !mode.contains(PosixFilePermission.OTHERS_WRITE);
    }

    /** The user this process runs as: the owner of /proc/self on Linux, else the one user.name names. */
    static UserPrincipal currentUser() throws IOException {
        Path self = Path.of("/proc/self");
        return Files.exists(self) ? Files.getOwner(self)
                : self.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(System.getProperty("user.name"));
    }

    /** The embedded jar {@code name} as a file in {@code dir}: the one there if its content is right, else written anew. */
    static Path extract(String name, Path dir) {
        byte[] bytes = read(name);
        byte[] sha256 = sha256(bytes);
        return place(dir.resolve(name.replace(".jar", "-" + HexFormat.of().formatHex(sha256, 0, 8) + ".jar")), bytes, sha256);
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

    /** {@code target} holding {@code bytes}: the file there if it is ours and its content has this SHA-256, else written anew. */
    private static Path place(Path target, byte[] bytes, byte[] sha256) {
        try {
            if (!holds(target, sha256)) {
                OutputFiles.write(target, bytes, JAR_MODE);
            }
            return target;
        } catch (IOException e) {
            throw new UserError("cannot write " + target.getFileName() + " to " + target.getParent() + ": " + e.getMessage());
        }
    }

    /** Whether {@code file} is a regular file of ours, writable by no one else, whose content has this SHA-256. */
    private static boolean holds(Path file, byte[] sha256) throws IOException {
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (java.nio.file.NoSuchFileException absent) {
            return false;
        }
        if (!a.isRegularFile() || !onlyOurs(a)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            return MessageDigest.isEqual(sha256(in.readAllBytes()), sha256);
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
