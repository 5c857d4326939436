package dev.lockscope.bench;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CPU time a workload's process spends while its throughput is measured, as cores busy (process CPU
 * nanoseconds per wall nanosecond): the overhead harness divides it by the throughput of the same window for
 * the steady-state CPU per operation. The whole process's CPU divided by the window's operations also charges
 * the JVM's start, the warm-up and a profiler's start-up (JFR's start, class transformation, JIT of its
 * code) to the measured operations, and on a workload that keeps every core busy that start-up is most of
 * what separates configurations.
 *
 * <p>Plain workloads print {@link #line} (the demos, which cannot reach this class at run time, print the same line
 * from {@code DemoMain}); JMH workloads report it through {@link ProcessCpuProfiler}.
 */
final class ProcessCpu {
    private static final Pattern LINE = Pattern.compile("process cpu: ([0-9.]+) cores");

    private ProcessCpu() {
    }

    /** User + system CPU time of this process, all threads. */
    static long nanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** The line a plain workload prints over its measured window: {@code process cpu: X cores}. */
    static String line(long cpuNanos, long wallNanos) {
        return String.format(Locale.ROOT, "process cpu: %.4f cores", (double) cpuNanos / wallNanos);
    }

    /** The cores busy a workload's output names ({@link #line}), or NaN. */
    static double coresIn(String output) {
        Matcher m = LINE.matcher(output);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }
}
