package dev.lockscope.core;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Cumulative CPU times from /proc, in clock ticks (USER_HZ, 100 per second on Linux): the machine's
 * busy and steal time from /proc/stat, and each thread's user + system time from
 * /proc/self/task/&lt;tid&gt;/stat. The inputs of steal accounting (Hofer, <i>Method Profiling and Lock
 * Contention Profiling on the JVM Level</i>, §5.3): the machine's CPU times exclude steal, so the
 * apparent total is busy + steal; a thread's times include any steal that hit it while it ran, unless
 * the kernel subtracts steal from tasks' run time itself ({@link #kernelExcludesStealFromThreads}).
 * The agent reads these on JFR's periodic thread; nothing here throws anything but {@link IOException}.
 */
public final class CpuTimes {
    /** Linux reports /proc times in USER_HZ, fixed at 100 for user space. */
    public static final long TICKS_PER_SECOND = 100;
    public static final long NANOS_PER_TICK = 1_000_000_000L / TICKS_PER_SECOND;

    private CpuTimes() {
    }

    /** The machine's cumulative counters, all CPUs summed, and the number of CPUs /proc/stat lists. */
    public record Machine(long busyTicks, long stealTicks, int cpus) {
        /** Apparent CPU time of all CPUs, steal included (Δt_cpu,total's counter). */
        public long apparentTicks() {
            return busyTicks + stealTicks;
        }
    }

    /** One thread's cumulative user + system ticks and its OS name (comm, at most 15 characters). */
    public record ThreadTicks(int tid, String name, long ticks) {
    }

    /** {@code procRoot}/stat: normally {@code /proc}. */
    public static Machine machine(Path procRoot) throws IOException {
        return parseMachine(Files.readString(procRoot.resolve("stat"), StandardCharsets.US_ASCII));
    }

    /**
     * The aggregate {@code cpu} line: user nice system idle iowait irq softirq steal guest guest_nice. Read in place,
     * without a regex or a split, for the reason {@link #parseThreadTicks} gives; only the lines up to the last
     * {@code cpuN} are looked at (the {@code intr} line after them holds thousands of numbers on a large machine).
     */
    static Machine parseMachine(String procStat) throws IOException {
        long[] f = null;
        int cpus = 0;
        for (int at = 0; at < procStat.length() && procStat.startsWith("cpu", at); ) {
            int end = procStat.indexOf('\n', at);
            if (end < 0) {
                end = procStat.length();
            }
            if (procStat.startsWith("cpu ", at)) {
                f = fields(procStat, at + 4, end);
            } else {
                cpus++;
            }
            at = end + 1;
        }
        if (f == null) {
            throw new IOException("no aggregate cpu line in /proc/stat");
        }
        // guest time is already inside user (and guest_nice inside nice): not added again
        return new Machine(f[0] + f[1] + f[2] + f[5] + f[6], f[7], cpus);
    }

    /** The first eight numbers of {@code s} from {@code from} to {@code end}, separated by spaces; 0 for those missing. */
    private static long[] fields(String s, int from, int end) throws IOException {
        long[] f = new long[8];
        int at = from;
        for (int i = 0; i < f.length; i++) {
            while (at < end && s.charAt(at) == ' ') {
                at++;
            }
            if (at >= end) {
                break;
            }
            int stop = at;
            while (stop < end && s.charAt(stop) != ' ') {
                stop++;
            }
            try {
                f[i] = Long.parseLong(s, at, stop, 10);
            } catch (NumberFormatException e) {
                throw new IOException("unreadable /proc/stat field " + (i + 1) + ": " + s.substring(at, stop));
            }
            at = stop;
        }
        return f;
    }

    /**
     * Each live thread's utime + stime under {@code taskDir} ({@code /proc/self/task}); threads that
     * exit meanwhile are left out.
     */
    public static List<ThreadTicks> threads(Path taskDir) throws IOException {
        List<ThreadTicks> out = new ArrayList<>();
        byte[] buffer = new byte[1024]; // a task's stat line is some 300 bytes (its comm at most 15 characters)
        try (DirectoryStream<Path> d = Files.newDirectoryStream(taskDir)) {
            for (Path task : d) {
                try {
                    int tid = Integer.parseInt(task.getFileName().toString());
                    String stat = readSmall(task.resolve("stat"), buffer);
                    out.add(new ThreadTicks(tid, threadName(stat), parseThreadTicks(stat)));
                } catch (IOException | RuntimeException e) {
                    // the thread exited between listing and reading
                }
            }
        }
        return out;
    }

    /**
     * A file of at most {@code buffer.length} bytes, as ASCII, through one reused buffer: a plain stream, not
     * {@link Files#readString}, whose channel (interruptible I/O, its size asked first) is more code for each of
     * the threads' files the agent reads every second, code the JIT was still compiling a minute in (docs/agent-cost.md
     * "The agent's cost per second").
     */
    private static String readSmall(Path file, byte[] buffer) throws IOException {
        try (InputStream in = new java.io.FileInputStream(file.toString())) {
            int n = 0;
            for (int r; n < buffer.length && (r = in.read(buffer, n, buffer.length - n)) > 0; ) {
                n += r;
            }
            return new String(buffer, 0, n, StandardCharsets.US_ASCII);
        }
    }

    /**
     * utime (field 14) + stime (field 15) of a /proc stat line; comm may hold spaces and parentheses. Read in
     * place, without a regex or a split: the agent reads every thread's line once a second, and
     * {@code split("\\s+")} compiled a pattern per line, code the JIT was still compiling a minute into the
     * application (docs/agent-cost.md, "The monitor table read from the recording").
     */
    static long parseThreadTicks(String stat) {
        // the kernel separates the fields after comm by one space; field 3 (state) follows ") "
        int at = stat.lastIndexOf(')') + 2;
        for (int field = 3; field < 14; field++) {
            at = stat.indexOf(' ', at) + 1;
            if (at == 0) {
                throw new IllegalArgumentException("a /proc stat line of fewer than 15 fields: " + stat);
            }
        }
        int end = stat.indexOf(' ', at);
        if (end < 0) {
            throw new IllegalArgumentException("a /proc stat line of fewer than 15 fields: " + stat);
        }
        int stimeEnd = stat.indexOf(' ', end + 1);
        return Long.parseLong(stat, at, end, 10)
                + Long.parseLong(stat, end + 1, stimeEnd < 0 ? stat.length() : stimeEnd, 10);
    }

    /** comm, between the first '(' and the last ')'. */
    static String threadName(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        return open >= 0 && close > open ? stat.substring(open + 1, close) : "?";
    }

    /** {@link #kernelExcludesStealFromThreads}' answers. */
    public static final int STEAL_IN_THREAD_TIMES = 0;
    public static final int STEAL_NOT_IN_THREAD_TIMES = 1;
    public static final int UNKNOWN = -1;

    /**
     * Whether this kernel leaves steal out of tasks' CPU times: with CONFIG_PARAVIRT_TIME_ACCOUNTING
     * (and without the boot option {@code no-steal-acc}) the scheduler's task clock stops while the
     * hypervisor runs something else, so a thread's utime + stime is already its real CPU time, and
     * only the machine counts the steal. The thesis's KVM guests counted it in the threads' times.
     * From {@code procRoot}/config.gz and cmdline; {@link #UNKNOWN} when the kernel does not publish its
     * configuration.
     */
    public static int kernelExcludesStealFromThreads(Path procRoot) {
        String config;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(procRoot.resolve("config.gz")))) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            config = bytes.toString(StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
        if (!config.contains("\nCONFIG_PARAVIRT_TIME_ACCOUNTING=y")) {
            return STEAL_IN_THREAD_TIMES;
        }
        try {
            String cmdline = Files.readString(procRoot.resolve("cmdline"), StandardCharsets.US_ASCII);
            if (cmdline.contains("no-steal-acc")) {
                return STEAL_IN_THREAD_TIMES;
            }
        } catch (IOException | RuntimeException e) {
            // no cmdline: the option cannot have been given through it
        }
        return STEAL_NOT_IN_THREAD_TIMES;
    }
}
