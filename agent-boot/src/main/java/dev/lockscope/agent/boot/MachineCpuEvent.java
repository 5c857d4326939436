package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * One sample of the machine's cumulative CPU counters from /proc/stat, written by the agent's CPU-time
 * sampler after the {@link ThreadCpuEvent}s of the same sample (same {@code sample} number): the inputs
 * of steal accounting. When /proc cannot be read, {@code problem} says why and the counters are 0.
 */
@Name(EventNames.MACHINE_CPU)
@Label("Machine CPU")
@Category({"lockscope", "CPU"})
@Description("Cumulative busy and steal time of all CPUs since boot, for steal accounting")
@Enabled(false)
@StackTrace(false)
public final class MachineCpuEvent extends jdk.jfr.Event {
    @Label("Sample")
    public long sample;

    @Label("Busy Time")
    @Description("user + nice + system + irq + softirq of all CPUs (steal excluded)")
    @Timespan(Timespan.NANOSECONDS)
    public long busyNanos;

    @Label("Steal Time")
    @Timespan(Timespan.NANOSECONDS)
    public long stealNanos;

    @Label("CPUs")
    public int cpus;

    @Label("Thread Times Exclude Steal")
    @Description("1: the kernel leaves steal out of threads' CPU times (CONFIG_PARAVIRT_TIME_ACCOUNTING); 0: it counts it in; -1: unknown")
    public int threadTimesExcludeSteal;

    @Label("Problem")
    @Description("Why the counters could not be read, or null")
    public String problem;
}
