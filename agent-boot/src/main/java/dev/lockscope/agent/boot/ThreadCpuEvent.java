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
 * One JVM thread's cumulative CPU time (utime + stime of /proc/self/task/&lt;tid&gt;/stat, GC and JIT
 * threads included) in one sample of the agent's CPU-time sampler; {@link MachineCpuEvent} closes the sample.
 */
@Name(EventNames.THREAD_CPU)
@Label("Thread CPU")
@Category({"lockscope", "CPU"})
@Description("Cumulative user + system time of one thread of this JVM, for steal accounting")
@Enabled(false)
@StackTrace(false)
public final class ThreadCpuEvent extends jdk.jfr.Event {
    @Label("Sample")
    public long sample;

    @Label("OS Thread Id")
    public long osTid;

    @Label("OS Thread Name")
    public String osName;

    @Label("CPU Time")
    @Timespan(Timespan.NANOSECONDS)
    public long cpuNanos;
}
