package dev.lockscope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

/**
 * A child process run to completion while its peak resident set size is polled from the kernel's
 * high-water mark ({@code VmHWM} in {@code /proc/<pid>/status}) every 50 ms (the JVM's own counters
 * would miss native memory: JFR buffers, async-profiler, thread stacks; the current RSS polled
 * missed spikes shorter than a poll, such as a JIT compilation's scratch memory), and its CPU time
 * from {@code /proc/<pid>/stat}.
 *
 * @param exitCode   the process's exit status
 * @param output     stdout and stderr together
 * @param wallNanos  from start to exit, as seen by the harness
 * @param peakRssBytes the largest RSS the process had up to the last poll; 0 if it exited before the first poll
 * @param cpuNanos   user + system CPU time of the process (all its threads) at the last poll of
 *                   {@code /proc/<pid>/stat}: up to one poll interval (50 ms) short of the total
 */
record MeasuredProcess(int exitCode, String output, long wallNanos, long peakRssBytes, long cpuNanos) {
    private static final long PAGE_BYTES = 4096;
    /** USER_HZ, the unit of utime and stime in /proc/<pid>/stat: 100 on every Linux architecture lockscope runs on. */
    private static final long CLOCK_TICKS_PER_SECOND = 100;

    static MeasuredProcess run(List<String> command, Path log) throws IOException, InterruptedException {
        return run(command, log, pid -> () -> { });
    }

    /**
     * @param sidecar started with the child's pid right after it starts (e.g. a scheduling
     *                collector); closed when the child has exited
     */
    static MeasuredProcess run(List<String> command, Path log, LongFunction<AutoCloseable> sidecar)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long peak = 0;
        long cpu = 0;
        long wall;
        Path status = Path.of("/proc", Long.toString(p.pid()), "status");
        Path stat = Path.of("/proc", Long.toString(p.pid()), "stat");
        try (AutoCloseable ignored = sidecar.apply(p.pid())) {
            while (!p.waitFor(50, TimeUnit.MILLISECONDS)) {
                peak = Math.max(peak, peakResidentBytes(status));
                cpu = Math.max(cpu, cpuNanos(stat));
            }
            wall = System.nanoTime() - start;
        } catch (IOException | InterruptedException | RuntimeException e) {
            p.destroyForcibly();
            throw e;
        } catch (Exception e) {
            throw new IOException("closing " + command.get(0) + "'s sidecar failed: " + e.getMessage(), e);
        }
        return new MeasuredProcess(p.exitValue(), Files.readString(log), wall, peak, cpu);
    }

    /** The process's peak RSS so far ({@code VmHWM} of /proc/PID/status); 0 when unreadable. */
    static long peakResidentBytes(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process may have just exited
        }
        return 0;
    }

    static long residentBytes(Path statm) {
        try {
            String[] f = Files.readString(statm).trim().split("\\s+");
            return Long.parseLong(f[1]) * PAGE_BYTES;
        } catch (IOException | RuntimeException e) {
            return 0; // the process may have just exited
        }
    }

    /** utime + stime (fields 14 and 15, counted after the command name, which may hold spaces); 0 when unreadable. */
    private static long cpuNanos(Path stat) {
        try {
            String text = Files.readString(stat);
            String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            return ticks * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return 0; // the process may have just exited
        }
    }

    /** The last 2,000 characters of the output, for error messages. */
    String tail() {
        return output.length() <= 2000 ? output : output.substring(output.length() - 2000);
    }
}
