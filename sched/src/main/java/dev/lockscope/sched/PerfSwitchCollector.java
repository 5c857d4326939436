package dev.lockscope.sched;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Records context switches of a process with {@code perf record -e dummy:u --switch-events -k mono -p PID}.
 * This works without root at {@code perf_event_paranoid} 2 for a process of the same user: the dummy
 * software event counts nothing, and {@code --switch-events} adds a PERF_RECORD_SWITCH side-band
 * record at every switch of every thread (inherited by threads created later).
 *
 * <p>perf starts with events disabled ({@code -D -1}) and is enabled through its control FIFO; the
 * window starts once perf acknowledges, so every thread's state at the window start is known from
 * the first record that follows (see {@link PerfScriptParser}). {@code -k mono} makes timestamps
 * CLOCK_MONOTONIC, the clock of System.nanoTime.
 */
public final class PerfSwitchCollector implements SchedCollector {
    private static final long START_TIMEOUT_MILLIS = 10_000;

    private final long pid;
    private final Path output;
    private final Path data;
    private final Path workDir;
    private final Process perf;
    private final long windowStart;
    private final Set<Integer> runningAtStart;
    private final Map<Integer, String> namesAtStart;
    private final long epochOffset = SchedTrace.currentEpochOffset();
    private SchedTrace result;
    private long cpuNanos = -1;
    /** perf's own start-up (reading /proc, mapping buffers) is not part of collecting. */
    private final long cpuAtStart;

    private PerfSwitchCollector(long pid, Path output, Path data, Path workDir, Process perf, long windowStart,
                                Set<Integer> runningAtStart, Map<Integer, String> namesAtStart) {
        this.pid = pid;
        this.output = output;
        this.data = data;
        this.workDir = workDir;
        this.perf = perf;
        this.windowStart = windowStart;
        this.runningAtStart = runningAtStart;
        this.namesAtStart = namesAtStart;
        this.cpuAtStart = processCpuNanos(perf.pid());
    }

    /** The perf executable: system property {@code lockscope.perf}, {@code $LOCKSCOPE_PERF}, or {@code perf} on the PATH. */
    static String perfCommand() {
        String prop = System.getProperty("lockscope.perf");
        if (prop != null && !prop.isBlank()) {
            return prop;
        }
        String env = System.getenv("LOCKSCOPE_PERF");
        return env == null || env.isBlank() ? "perf" : env;
    }

    public static PerfSwitchCollector start(long pid, Path output) {
        ProcTasks proc = new ProcTasks(pid);
        if (!proc.exists()) {
            throw new IllegalArgumentException("no process " + pid);
        }
        Path workDir;
        try {
            workDir = Files.createTempDirectory("lockscope-perf");
            Path ctl = workDir.resolve("ctl");
            Path ack = workDir.resolve("ack");
            mkfifo(ctl);
            mkfifo(ack);
            Path data = workDir.resolve("perf.data");
            Path log = workDir.resolve("perf.log");
            Process perf;
            try {
                perf = new ProcessBuilder(perfCommand(), "record", "-q", "-e", "dummy:u", "--switch-events",
                        "-k", "mono", "-D", "-1", "--control", "fifo:" + ctl + "," + ack,
                        "-o", data.toString(), "-p", Long.toString(pid))
                        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            } catch (IOException e) {
                throw new PerfUnavailableException("perf not found (" + perfCommand()
                        + "); install linux-perf for exact bottle graphs");
            }
            Map<Integer, String> names = proc.names();
            enable(perf, ctl, ack, log);
            long start = System.nanoTime();
            Set<Integer> running = proc.runnable();
            return new PerfSwitchCollector(pid, output, data, workDir, perf, start, running, names);
        } catch (IOException e) {
            throw new PerfUnavailableException("cannot start perf: " + e.getMessage());
        }
    }

    private static void mkfifo(Path p) throws IOException {
        try {
            Process mk = new ProcessBuilder("mkfifo", "-m", "600", p.toString()).start();
            if (!mk.waitFor(5, TimeUnit.SECONDS) || mk.exitValue() != 0) {
                throw new IOException("mkfifo failed for " + p);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    /** Sends "enable" and waits for perf's "ack"; if perf dies first, says why in one line. */
    private static void enable(Process perf, Path ctl, Path ack, Path log) throws IOException {
        // Opening a FIFO blocks until the other side opens it; do it on a helper thread so that a
        // perf that exits early (no permission, no such pid) cannot hang us.
        java.util.concurrent.CompletableFuture<String> handshake = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                Files.writeString(ctl, "enable\n", StandardCharsets.US_ASCII);
                try (BufferedReader r = Files.newBufferedReader(ack, StandardCharsets.US_ASCII)) {
                    return r.readLine();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            if (handshake.isDone()) {
                String reply = handshake.getNow(null);
                if (reply != null && reply.startsWith("ack")) {
                    return;
                }
                break;
            }
            if (!perf.isAlive()) {
                break;
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        perf.destroyForcibly();
        // Unblock the helper if it still waits on a FIFO nobody will open.
        unblock(ctl, ack);
        String why = firstLine(log);
        throw new PerfUnavailableException("perf record failed" + (why.isEmpty() ? "" : ": " + why));
    }

    private static void unblock(Path ctl, Path ack) {
        Thread t = new Thread(() -> {
            try (var in = Files.newInputStream(ctl); var out = Files.newOutputStream(ack)) {
                out.write('\n');
            } catch (IOException ignored) {
                // nothing waits any more
            }
        }, "lockscope-perf-unblock");
        t.setDaemon(true);
        t.start();
    }

    private static String firstLine(Path log) {
        try {
            for (String l : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (!l.isBlank()) {
                    return l.strip();
                }
            }
        } catch (IOException ignored) {
            // no log
        }
        return "";
    }

    @Override
    public long collectorCpuNanos() {
        return cpuNanos;
    }

    /** utime + stime of a live process from /proc (clock ticks of 10 ms); -1 if gone. */
    static long processCpuNanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L; // fields 14, 15; CLK_TCK 100
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public SchedSource source() {
        return SchedSource.PERF;
    }

    @Override
    public synchronized SchedTrace stop() {
        if (result != null) {
            return result;
        }
        long end = System.nanoTime();
        boolean exited = !perf.isAlive();
        long cpuAtEnd = processCpuNanos(perf.pid());
        cpuNanos = cpuAtEnd < 0 || cpuAtStart < 0 ? -1 : cpuAtEnd - cpuAtStart;
        perf.destroy(); // SIGTERM: perf record flushes and finalises the file
        try {
            if (!perf.waitFor(30, TimeUnit.SECONDS)) {
                perf.destroyForcibly();
                throw new IllegalStateException("perf record did not stop within 30 s");
            }
            exited |= !new ProcTasks(pid).exists();
            result = convert(end, exited).withEpochOffset(epochOffset);
            SchedFile.write(result, output);
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping perf");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot convert perf data: " + e.getMessage(), e);
        } finally {
            deleteQuietly();
        }
    }

    private SchedTrace convert(long end, boolean exited) throws IOException, InterruptedException {
        Process script = new ProcessBuilder(perfCommand(), "script", "-f", "-i", data.toString(),
                "--show-switch-events", "--show-task-events", "--ns")
                .redirectError(workDir.resolve("script.log").toFile()).start();
        PerfScriptParser parser = new PerfScriptParser(pid, windowStart, end);
        try (BufferedReader r = new BufferedReader(new InputStreamReader(script.getInputStream(),
                StandardCharsets.UTF_8), 1 << 16)) {
            parser.parse(r);
        }
        if (script.waitFor() != 0) {
            throw new IOException("perf script failed: " + firstLine(workDir.resolve("script.log")));
        }
        return parser.trace(Runtime.getRuntime().availableProcessors(), runningAtStart, namesAtStart, exited);
    }

    private void deleteQuietly() {
        for (String f : List.of("perf.data", "perf.data.old", "perf.log", "script.log", "ctl", "ack")) {
            try {
                Files.deleteIfExists(workDir.resolve(f));
            } catch (IOException ignored) {
                // temp dir: harmless
            }
        }
        try {
            Files.deleteIfExists(workDir);
        } catch (IOException ignored) {
            // not empty: harmless
        }
    }
}
