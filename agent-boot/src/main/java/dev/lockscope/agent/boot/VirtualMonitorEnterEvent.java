package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A virtual thread was blocked entering a monitor and unmounted from its carrier (JDK 24+, JEP 491),
 * where the JVM writes no {@code jdk.JavaMonitorEnter}. Begins when it unmounted, ends when it was
 * mounted again to retry the monitor. Committed by lockscope's "lockscope-virtual-thread-events" thread
 * after the virtual thread's next unmount, so the JFR thread is that thread: the virtual thread is
 * named in {@code virtualThreadId}/{@code Name}, and its own stack, taken from its frozen continuation
 * while it blocked, is in {@code frames}.
 */
@Name(EventNames.VIRTUAL_MONITOR_ENTER)
@Label("Virtual Thread Monitor Enter")
@Category({"lockscope", "Lock Contention"})
@Description("A virtual thread blocked on monitor enter while unmounted; the duration is the time until it was mounted again")
@Enabled(false)
@StackTrace(false)
public final class VirtualMonitorEnterEvent extends jdk.jfr.Event {
    @Label("Monitor Class")
    @Description("Class of the monitor object, or null when this JDK cannot tell (before JDK 25)")
    public String monitorClass;

    @Label("Monitor Identity Hash")
    public int monitorHash;

    @Label("Frames")
    @Description("The virtual thread's stack when it blocked, innermost first, one class.method:line a line")
    public String frames;

    @Label("Virtual Thread Id")
    public long virtualThreadId;

    @Label("Virtual Thread Name")
    @Description("Empty when the virtual thread has no name")
    public String virtualThreadName;

    @Label("Carrier Thread")
    @Description("The platform thread the virtual thread was mounted on when it blocked")
    public String carrierName;
}
