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
 * <p>The reserve kept free is what JFR may write at once (a chunk rotation, such as the copy of the
 * recording at stop, flushes JFR's in-memory buffers: its {@code memorysize}, 10 MB by default, and
 * each thread's buffer) plus 64 MB, or a quarter of a filesystem smaller than 256 MB, for what JFR
 * writes while the copy runs. Before the recording starts, {@link #beforeStart} refuses a
 * repository or destination without that much room (on a 2 MB filesystem JFR ended the VM within
 * 2.5 s of the start of a park storm). While it runs, one daemon thread, off the application's path,
 * polls every {@value #PERIOD_MILLIS} ms (every {@value #RELAXED_PERIOD_MILLIS} ms while more than
 * {@value #RELAXED_HEADROOM_MB} MB beyond what it needs are free) the free space of the filesystem
 * of JFR's repository and of the recording's file, and stops the recording when the copy of the
 * repository to the file would not fit with the reserve left. It also notices when JFR dropped the
 * oldest chunks of the recording for {@code maxSize}/{@code maxAge} (the recording's size went down).
 * A disk filled by something else faster than the reserve in one period can still reach JFR first.
 */
final class DiskGuard implements Runnable {
    static final long PERIOD_MILLIS = 100;
    static final long RELAXED_PERIOD_MILLIS = 1000;
    static final long RELAXED_HEADROOM_MB = 2048;
    private static final long MAX_RESERVE = 64L << 20;
    /** JFR's defaults (JDK 17 and 25) for its {@code FlightRecorderOptions} memorysize and threadbuffersize. */
    private static final long JFR_MEMORY = 10L << 20;
    private static final long JFR_THREAD_BUFFER = 8L << 10;

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

    /**
     * The guard of a recording into {@code file}, before the recording starts: refused when the
     * repository or the destination has less room than the reserve already, since JFR would end the
     * VM at its first flush there. Also loads every class the check needs now, not on the guard's
     * thread while the application loads its own (a class-loader monitor the table would show).
     */
    static DiskGuard beforeStart(RecordingSession session, Path file) throws NoRoom {
        DiskGuard guard = new DiskGuard(session, file);
        String full;
        try {
            full = guard.tooFull();
        } catch (IOException | RuntimeException e) {
            return guard; // cannot tell the free space: the thread will find out again
        }
        if (full != null) {
            throw new NoRoom(full);
        }
        return guard;
    }

    /** Starts polling, once the recording has started. */
    DiskGuard start() {
        thread.start();
        return this;
    }

    /** Too little room to start recording; its text is the one line to print. */
    static final class NoRoom extends IOException {
        NoRoom(String why) {
            super(why);
        }

        @Override
        public String toString() {
            return getMessage();
        }
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
                long size = session.recordingSize();
                trimmed |= size < lastSize;
                lastSize = size;
                String full = tooFull();
                if (full != null) {
                    session.stop(full);
                    return;
                }
            } catch (IOException | RuntimeException e) {
                // cannot tell the free space (a removed directory, an unusual filesystem): keep recording
            }
            try {
                Thread.sleep(headroom > RELAXED_HEADROOM_MB << 20 ? RELAXED_PERIOD_MILLIS : PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Why the recording must stop now, or null. */
    private String tooFull() throws IOException {
        String repositoryProperty = System.getProperty("jdk.jfr.repository"); // set once JFR has made its repository
        long repositoryBytes = repositoryProperty == null ? 0 : directorySize(Path.of(repositoryProperty));
        Path repository = repositoryProperty != null ? Path.of(repositoryProperty) : existing(plannedRepository());
        Path dir = file.toAbsolutePath().getParent();
        if (fileStore == null) {
            fileStore = Files.getFileStore(existing(dir));
        }
        long free = fileStore.getUsableSpace();
        // what stop() copies is at most the whole repository (our chunks and any other recording's)
        long reserve = reserve(fileStore);
        headroom = free - repositoryBytes - reserve;
        if (free < repositoryBytes + reserve) {
            return String.format(Locale.ROOT, "the disk is nearly full: %s free in %s, and writing the recording needs up to %s "
                    + "plus %s kept free", mb(free), dir, mb(repositoryBytes), mb(reserve));
        }
        if (!repository.equals(repositoryOfStore)) { // JFR moves its repository when told to (jcmd JFR.configure)
            repositoryStore = Files.getFileStore(repository);
            repositoryOfStore = repository;
        }
        long repositoryFree = repositoryStore.getUsableSpace();
        long repositoryReserve = reserve(repositoryStore);
        headroom = Math.min(headroom, repositoryFree - repositoryReserve);
        if (!repositoryStore.equals(fileStore) && repositoryFree < repositoryReserve) {
            return String.format(Locale.ROOT, "the disk is nearly full: %s free where JFR keeps its chunks (%s), "
                    + "which needs %s kept free (JFR ends the JVM when a write there fails)", mb(repositoryFree), repository,
                    mb(repositoryReserve));
        }
        return null;
    }

    /** What JFR may write at once, plus room for what it writes meanwhile (see the class comment). */
    private static long reserve(FileStore store) throws IOException {
        return jfrBuffers() + Math.min(MAX_RESERVE, store.getTotalSpace() / 4);
    }

    /** JFR's in-memory buffers, which a chunk rotation writes to the repository: its memory size and one buffer per thread. */
    private static long jfrBuffers() {
        long threads;
        try {
            threads = java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount();
        } catch (Throwable noManagement) {
            threads = Thread.activeCount();
        }
        return JFR_OPTIONS.memory() + threads * JFR_OPTIONS.threadBuffer();
    }

    /** Where JFR makes its repository when it starts: {@code FlightRecorderOptions:repository=}, else the temp directory. */
    private static Path plannedRepository() {
        return Path.of(JFR_OPTIONS.repository() != null ? JFR_OPTIONS.repository() : System.getProperty("java.io.tmpdir"));
    }

    /** {@code path}, or its nearest ancestor that exists (JFR and the agent create the missing ones). */
    private static Path existing(Path path) {
        Path p = path.toAbsolutePath();
        while (p.getParent() != null && !Files.exists(p)) {
            p = p.getParent();
        }
        return p;
    }

    private static final JfrOptions JFR_OPTIONS = JfrOptions.read();

    /** The JVM's {@code -XX:FlightRecorderOptions} (fixed at VM creation), JFR's defaults where not given. */
    private record JfrOptions(String repository, long memory, long threadBuffer) {
        static JfrOptions read() {
            String value = "";
            try {
                value = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                        .getVMOption("FlightRecorderOptions").getValue();
            } catch (Throwable noManagement) {
                // no jdk.management in a jlinked runtime: JFR's defaults
            }
            String repository = null;
            long memory = JFR_MEMORY;
            long threadBuffer = JFR_THREAD_BUFFER;
            for (String option : value.split(",")) {
                int eq = option.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String v = option.substring(eq + 1).strip();
                switch (option.substring(0, eq).strip()) {
                    case "repository" -> repository = v;
                    case "memorysize" -> memory = bytes(v, memory);
                    case "threadbuffersize" -> threadBuffer = bytes(v, threadBuffer);
                    default -> {
                    }
                }
            }
            return new JfrOptions(repository, memory, threadBuffer);
        }

        /** JFR's memory sizes: bytes, or with k, m or g. */
        static long bytes(String v, long otherwise) {
            try {
                char unit = Character.toLowerCase(v.charAt(v.length() - 1));
                int shift = unit == 'k' ? 10 : unit == 'm' ? 20 : unit == 'g' ? 30 : 0;
                return Long.parseLong(shift == 0 ? v : v.substring(0, v.length() - 1)) << shift;
            } catch (RuntimeException e) {
                return otherwise;
            }
        }
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
