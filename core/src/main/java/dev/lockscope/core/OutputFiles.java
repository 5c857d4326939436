package dev.lockscope.core;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * How lockscope creates every file it writes (recordings, snapshots, reports): a new file with a random
 * name beside the destination, created with O_EXCL and the file mode (0600 unless the user asks for a
 * shared one), then renamed over the destination. A rename replaces a symlink at the destination
 * itself, never the file it points to, and no one sees the file half written or with a wider mode.
 */
public final class OutputFiles {
    /** Read and write for the owner only: recordings hold system properties, stacks and thread names. */
    public static final int OWNER_ONLY = 0600;

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private OutputFiles() {
    }

    /**
     * The value of {@code --file-mode} / {@code fileMode=}: an octal mode that gives the owner read and
     * write and the group and others at most read (0600, 0640, 0604, 0644). Writable by others is never
     * offered: anyone could then change a recording that lockscope reads back.
     */
    public static int fileMode(String option, String value) {
        int mode;
        try {
            mode = Integer.parseInt(value, 8);
        } catch (NumberFormatException e) {
            mode = -1;
        }
        if (mode < 0 || (mode & ~0644) != 0 || (mode & 0600) != 0600) {
            throw new IllegalArgumentException(option + " must be an octal mode with owner read-write and at most read for "
                    + "group and others (0600, 0640, 0644), not '" + value + "'");
        }
        return mode;
    }

    /** {@code 0640} → {@code rw-r-----}. */
    public static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ (0400) first ... OTHERS_EXECUTE (0001) last
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (bits.length - 1 - i))) != 0) {
                set.add(bits[i]);
            }
        }
        return set;
    }

    /**
     * A new empty file in {@code dir} named {@code prefix<random>suffix}, with exactly {@code mode}: created
     * with O_EXCL (so never through a symlink) and the mode set again afterwards, since the umask narrows
     * the mode a file is created with.
     */
    public static Path createNew(Path dir, String prefix, String suffix, int mode) throws IOException {
        return withMode(Files.createTempFile(dir, prefix, suffix, ownerOnly()), mode);
    }

    /** {@code file}, new and empty, with exactly {@code mode}; {@link java.nio.file.FileAlreadyExistsException} if anything (a symlink too) is there. */
    public static Path createFile(Path file, int mode) throws IOException {
        return withMode(Files.createFile(file, ownerOnly()), mode);
    }

    @SuppressWarnings("unchecked")
    private static FileAttribute<Set<PosixFilePermission>>[] ownerOnly() {
        return POSIX ? new FileAttribute[] {PosixFilePermissions.asFileAttribute(permissions(OWNER_ONLY))} : new FileAttribute[0];
    }

    private static Path withMode(Path file, int mode) throws IOException {
        if (POSIX && mode != OWNER_ONLY) {
            Files.setPosixFilePermissions(file, permissions(mode));
        }
        return file;
    }

    /** A new file beside {@code destination} for its content, to be {@link #moveOnto moved onto} it once complete. */
    public static Path partFor(Path destination, int mode) throws IOException {
        Path dir = destination.toAbsolutePath().getParent();
        return createNew(dir, destination.getFileName() + ".", ".part", mode);
    }

    /** Renames {@code part} to {@code destination} in one step, replacing what is there (a symlink: the link itself). */
    public static void moveOnto(Path part, Path destination) throws IOException {
        Files.move(part, destination, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Writes {@code bytes} to {@code destination} with {@code mode}: a new file beside it, then renamed over it. */
    public static void write(Path destination, byte[] bytes, int mode) throws IOException {
        Path part = partFor(destination, mode);
        try {
            try (OutputStream out = Files.newOutputStream(part, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                out.write(bytes);
            }
            moveOnto(part, destination);
        } finally {
            Files.deleteIfExists(part);
        }
    }
}
