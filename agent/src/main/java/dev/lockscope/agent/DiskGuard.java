package dev.lockscope.agent;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Stops lockscope's recording before its disk is full. When a write to JFR's chunk repository fails,
 * JFR shuts the whole JVM down ("An irrecoverable error in Jfr. Shutting down VM...", exit code 1,
 * measured on JDK 17 and 25): nothing can catch that, so lockscope must stop first.
 *
 * <p>One daemon thread, off the application's path, polls every {@value #PERIOD_MILLIS} ms (every
 * {@value #RELAXED_PERIOD_MILLIS} ms while more than {@value #RELAXED_HEADROOM_MB} MB beyond what it
 * needs are free) the free space of the filesystem of JFR's repository and of the recording's file,
 * and stops the recording
 * when the copy of the repository to the file would not fit with a reserve left. The reserve is
 * 64 MB, or a quarter of a filesystem smaller than 256 MB: while the copy runs, JFR keeps writing,
 * and the chunk rotation of the copy flushes its in-memory buffers (10 MB by default) to disk. It also notices when JFR dropped the
 * oldest chunks of the recording for {@code maxSize}/{@code maxAge} (the recording's size went down).
 * A disk filled by something else faster than the reserve in one period can still reach JFR first.
 */
final class DiskGuard implements Runnable {
    static final long PERIOD_MILLIS = 100;
    static final long RELAXED_PERIOD_MILLIS = 1000;
    static final long RELAXED_HEADROOM_MB = 2048;
    private static final long MAX_RESERVE = 64L << 20;

    private final RecordingSession session;
    private final Path file;
    private final Thread thread;
    private volatile boolean stopping;
    private volatile boolean trimmed;
    /**
     * The filesystems, found once: {@code Files.getFileStore} reads the mount table each time, which
     * at 10 polls a second was most of the guard's CPU (an async-profiler profile of a JMH run: 50 of
     * the agent's 170 ms of background CPU in 15 s); free space from a known store is one statvfs.
     */
    private FileStore fileStore;
    private FileStore repositoryStore;
    private Path repositoryOfStore;
    /** Bytes free beyond what the last check needed; the next poll comes sooner when this is small. */
    private long headroom;

    private DiskGuard(RecordingSession session, Path file) {
        this.session = session;
        this.file = file;
        this.thread = new Thread(this, "lockscope-disk-guard");
        thread.setDaemon(true);
    }

    static DiskGuard start(RecordingSession session, Path file) {
        DiskGuard guard = new DiskGuard(session, file);
        try {
            // once here, so that every class the check needs is loaded now and not by the guard's thread
            // while the application loads its own (a class-loader monitor the table would show)
            guard.tooFull();
        } catch (IOException | RuntimeException e) {
            // the thread will find out again
        }
        guard.thread.start();
        return guard;
    }

    Thread thread() {
        return thread;
    }

    /** True once JFR dropped old chunks of the recording for its size or age cap. */
    boolean trimmed() {
        return trimmed;
    }

    /** Ends the thread and waits for it (the attach/stop harness counts leaked threads). */
    void stop() {
        stopping = true;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        long lastSize = 0;
        while (!stopping) {
            try {
                Thread.sleep(headroom > RELAXED_HEADROOM_MB << 20 ? RELAXED_PERIOD_MILLIS : PERIOD_MILLIS);
                long size = session.recordingSize();
                trimmed |= size < lastSize;
                lastSize = size;
                String full = tooFull();
                if (full != null) {
                    session.stop(full);
                    return;
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                // cannot tell the free space (a removed directory, an unusual filesystem): keep recording
            }
        }
    }

    /** Why the recording must stop now, or null. */
    private String tooFull() throws IOException {
        String repositoryProperty = System.getProperty("jdk.jfr.repository");
        Path repository = repositoryProperty == null ? null : Path.of(repositoryProperty);
        long repositoryBytes = repository == null ? 0 : directorySize(repository);
        Path dir = file.toAbsolutePath().getParent();
        if (fileStore == null) {
            fileStore = Files.getFileStore(dir);
        }
        long free = fileStore.getUsableSpace();
        // what stop() copies is at most the whole repository (our chunks and any other recording's)
        long reserve = reserve(fileStore);
        headroom = free - repositoryBytes - reserve;
        if (free < repositoryBytes + reserve) {
            return String.format(Locale.ROOT, "the disk is nearly full: %s free in %s, and writing the recording needs up to %s "
                    + "plus %s kept free", mb(free), dir, mb(repositoryBytes), mb(reserve));
        }
        if (repository != null) {
            if (!repository.equals(repositoryOfStore)) { // JFR moves its repository when told to (jcmd JFR.configure)
                repositoryStore = Files.getFileStore(repository);
                repositoryOfStore = repository;
            }
            long repositoryFree = repositoryStore.getUsableSpace();
            headroom = Math.min(headroom, repositoryFree - reserve(repositoryStore));
            if (!repositoryStore.equals(fileStore) && repositoryFree < reserve(repositoryStore)) {
                return String.format(Locale.ROOT, "the disk is nearly full: %s free where JFR keeps its chunks (%s)",
                        mb(repositoryFree), repository);
            }
        }
        return null;
    }

    private static long reserve(FileStore store) throws IOException {
        return Math.min(MAX_RESERVE, store.getTotalSpace() / 4);
    }

    private static long directorySize(Path dir) throws IOException {
        long bytes = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                try {
                    bytes += Files.size(f);
                } catch (IOException goneMeanwhile) {
                    // JFR removed an old chunk while we listed
                }
            }
        }
        return bytes;
    }

    /** " (12.3 MB free on its filesystem)", or "" when that cannot be told: for messages about a failed write. */
    static String freeSpace(Path file) {
        try {
            return " (" + mb(Files.getFileStore(file.toAbsolutePath().getParent()).getUsableSpace()) + " free on its filesystem)";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
