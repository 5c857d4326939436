package dev.lockscope.sched;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Fallback when perf is unavailable: samples {@code /proc/PID/task/TID/schedstat} (on-CPU ns,
 * run-queue wait ns, time slices) every few milliseconds through file channels kept open (pread),
 * looking for new threads when the process's thread count changes, and turns each window's per-thread on-CPU deltas into transitions with {@link WindowPacking}.
 * Running time per thread is exact (to one window); how threads overlapped inside a window is
 * not observed, so shares and parallelism are estimates, and the trace says so.
 */
public final class SchedstatSampler implements SchedCollector {
    public static final int DEFAULT_PERIOD_MILLIS = 5;

    private final long pid;
    private final java.nio.file.Path output;
    private final long periodNanos;
    private final String reason;
    private final ProcTasks proc;
    private final int cpus = Runtime.getRuntime().availableProcessors();
    private final Map<Integer, FileChannel> channels = new HashMap<>();
    private final Map<Integer, long[]> previous = new HashMap<>();
    private final Map<Integer, String> names = new HashMap<>();
    private final List<Transition> transitions = new ArrayList<>();
    private final List<RunQueueWait> waits = new ArrayList<>();
    private final ByteBuffer buf = ByteBuffer.allocate(128);
    private final Thread thread;
    private final long windowStart;
    private volatile boolean running = true;
    private long lastSample;
    private SchedTrace result;
    private volatile long cpuNanos = -1;
    private FileChannel statChannel;
    private final java.util.Set<Integer> provisional = new java.util.HashSet<>();
    private final String processComm;
    private long lastThreadCount = -2;
    private int sinceRescan;

    @Override
    public long collectorCpuNanos() {
        return cpuNanos;
    }

    private SchedstatSampler(long pid, java.nio.file.Path output, int periodMillis, String reason) {
        this.pid = pid;
        this.output = output;
        this.periodNanos = periodMillis * 1_000_000L;
        this.reason = reason;
        this.proc = new ProcTasks(pid);
        if (!proc.exists()) {
            throw new IllegalArgumentException("no process " + pid);
        }
        this.processComm = proc.comm((int) pid);
        rescan(false);
        this.windowStart = System.nanoTime();
        this.lastSample = windowStart;
        sampleAll(); // baseline: time before the window is not counted
        transitions.clear();
        waits.clear();
        this.thread = new Thread(this::loop, "lockscope-schedstat");
        thread.setDaemon(true);
        thread.start();
    }

    /** @param reason why the fallback is used; it becomes part of the trace's approximation note */
    public static SchedstatSampler start(long pid, java.nio.file.Path output, int periodMillis, String reason) {
        return new SchedstatSampler(pid, output, periodMillis, reason);
    }

    @Override
    public SchedSource source() {
        return SchedSource.SCHEDSTAT;
    }

    private void loop() {
        try {
            sampleUntilStopped();
        } finally {
            // measured by the thread itself: once it has ended, its CPU time can no longer be read
            cpuNanos = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        }
    }

    /**
     * A new thread first carries its creator's name; the JVM renames it (prctl) once the thread
     * runs. Names still equal to the process's are therefore read again at each rescan and at stop.
     */
    private void refreshProvisionalNames() {
        for (var it = provisional.iterator(); it.hasNext(); ) {
            int tid = it.next();
            String comm = proc.comm(tid);
            if (comm == null) {
                it.remove(); // exited: keep the last name seen
            } else if (!comm.equals(processComm)) {
                names.put(tid, comm);
                it.remove();
            }
        }
    }

    /** num_threads (field 20) of /proc/PID/stat, or -1. */
    private long threadCount() {
        try {
            if (statChannel == null) {
                statChannel = FileChannel.open(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"),
                        StandardOpenOption.READ);
            }
            ByteBuffer b = ByteBuffer.allocate(1024);
            int n = statChannel.read(b, 0);
            String stat = new String(b.array(), 0, Math.max(0, n), StandardCharsets.US_ASCII);
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[17]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private void sampleUntilStopped() {
        while (running) {
            LockSupport.parkNanos(periodNanos);
            // A thread found late would have all its time so far charged to one window, where it is
            // clipped to the window length; so look for new threads whenever the thread count in
            // /proc/PID/stat changes (one pread), and list the task directory anyway every 20 samples.
            long count = threadCount();
            if (count != lastThreadCount || ++sinceRescan >= 20) {
                rescan(true);
                lastThreadCount = count;
                sinceRescan = 0;
            }
            synchronized (this) {
                if (!running) {
                    break;
                }
                sampleAll();
            }
            if (!proc.exists()) {
                break;
            }
        }
    }

    /** Opens channels for threads not seen yet; a thread born after the start counts from zero. */
    private synchronized void rescan(boolean bornDuringWindow) {
        refreshProvisionalNames();
        for (int tid : proc.tids()) {
            if (channels.containsKey(tid)) {
                continue;
            }
            try {
                channels.put(tid, FileChannel.open(proc.schedstat(tid), StandardOpenOption.READ));
                if (bornDuringWindow) {
                    previous.put(tid, new long[] {0, 0});
                }
                String comm = proc.comm(tid);
                if (comm != null) {
                    names.put(tid, comm);
                    if (comm.equals(processComm)) {
                        provisional.add(tid);
                    }
                }
            } catch (IOException e) {
                // exited meanwhile
            }
        }
    }

    private void sampleAll() {
        long now = System.nanoTime();
        long window = now - lastSample;
        Map<Integer, Long> ran = new TreeMap<>(); // sorted: deterministic packing order
        for (var it = channels.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            long[] cur = read(e.getValue());
            if (cur == null) {
                closeQuietly(e.getValue());
                it.remove();
                continue;
            }
            long[] prev = previous.put(e.getKey(), cur);
            if (prev == null) {
                continue;
            }
            long run = cur[0] - prev[0];
            long wait = cur[1] - prev[1];
            if (run > 0) {
                ran.put(e.getKey(), run);
            }
            if (wait > 0) {
                waits.add(new RunQueueWait(now, e.getKey(), wait));
            }
        }
        if (window > 0 && !ran.isEmpty()) {
            transitions.addAll(WindowPacking.pack(lastSample, window, cpus, ran));
        }
        lastSample = now;
    }

    private long[] read(FileChannel ch) {
        try {
            buf.clear();
            int n = ch.read(buf, 0);
            if (n <= 0) {
                return null;
            }
            String[] f = new String(buf.array(), 0, n, StandardCharsets.US_ASCII).trim().split(" ");
            return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    @Override
    public SchedTrace stop() {
        synchronized (this) {
            if (result != null) {
                return result;
            }
            running = false;
        }
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (proc.exists()) {
                sampleAll();
                refreshProvisionalNames();
            }
            long end = lastSample;
            channels.values().forEach(SchedstatSampler::closeQuietly);
            channels.clear();
            if (statChannel != null) {
                closeQuietly(statChannel);
            }
            String note = "sampled /proc schedstat every " + periodNanos / 1_000_000
                    + " ms (" + reason + "): running time exact, overlap within a sample assumed serial";
            result = new SchedTrace(SchedSource.SCHEDSTAT, note, pid, cpus, windowStart, end, names,
                    transitions, waits, SchedTrace.currentEpochOffset());
            SchedFile.write(result, output);
            return result;
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing a /proc file cannot lose data
        }
    }
}
