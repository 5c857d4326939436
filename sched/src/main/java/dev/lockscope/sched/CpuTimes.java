package dev.lockscope.sched;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Cumulative CPU times from /proc, in clock ticks (USER_HZ, 100 per second on Linux): the machine's
 * busy and steal time from /proc/stat, and each thread's user + system time from
 * /proc/&lt;pid&gt;/task/&lt;tid&gt;/stat. The inputs of steal accounting (Hofer §5.3): the machine's
 * CPU times exclude steal, so the apparent total is busy + steal; a thread's times include any steal
 * that hit it while it ran.
 */
public final class CpuTimes {
    /** Linux reports /proc times in USER_HZ, fixed at 100 for user space. */
    public static final long TICKS_PER_SECOND = 100;

    private CpuTimes() {
    }

    /** The machine's cumulative counters, all CPUs summed. */
    public record Machine(long busyTicks, long stealTicks) {
        /** Apparent CPU time of all CPUs, steal included (Δt_cpu,total's counter). */
        public long apparentTicks() {
            return busyTicks + stealTicks;
        }
    }

    public static Machine machine() throws IOException {
        return parseMachine(Files.readString(Path.of("/proc/stat"), StandardCharsets.US_ASCII));
    }

    /** The aggregate {@code cpu} line: user nice system idle iowait irq softirq steal guest guest_nice. */
    static Machine parseMachine(String procStat) {
        for (String line : procStat.split("\n")) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                long user = field(f, 1);
                long nice = field(f, 2);
                long system = field(f, 3);
                long irq = field(f, 6);
                long softirq = field(f, 7);
                long steal = field(f, 8);
                // guest time is already inside user (and guest_nice inside nice): not added again
                return new Machine(user + nice + system + irq + softirq, steal);
            }
        }
        throw new IllegalArgumentException("no aggregate cpu line in /proc/stat");
    }

    private static long field(String[] f, int i) {
        return i < f.length ? Long.parseLong(f[i]) : 0;
    }

    /** Each live thread's utime + stime of process {@code pid}; threads that exit meanwhile are left out. */
    public static Map<Integer, Long> threads(long pid) {
        ProcTasks tasks = new ProcTasks(pid);
        Map<Integer, Long> out = new HashMap<>();
        for (int tid : tasks.tids()) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "task", tid + "/stat"),
                        StandardCharsets.US_ASCII);
                out.put(tid, parseThreadTicks(stat));
            } catch (IOException | RuntimeException e) {
                // the thread exited between listing and reading
            }
        }
        return out;
    }

    /** utime (field 14) + stime (field 15) of a /proc stat line; comm may hold spaces and parentheses. */
    static long parseThreadTicks(String stat) {
        int close = stat.lastIndexOf(')');
        String[] f = stat.substring(close + 2).trim().split("\\s+");
        // f[0] is field 3 (state), so field n is f[n - 3]
        return Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3]);
    }
}
