package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A virtual thread was mounted on a carrier from {@code mountNanos} to {@code unmountNanos} (agent
 * option {@code carriers}, JDK 21+). Committed later by lockscope's own thread ({@link CarrierMounts}),
 * so the event's thread is that one and the times are fields: {@code System.nanoTime()} values, the
 * clock of the scheduling data ({@code .sched}, CLOCK_MONOTONIC on Linux); {@code nanoTime} was read at
 * the event's start time, which places them on the recording's time line too.
 */
@Name(EventNames.CARRIER_MOUNT)
@Label("Carrier Mount")
@Category({"lockscope", "Virtual Threads"})
@Description("A virtual thread ran mounted on a carrier thread between two System.nanoTime instants")
@Enabled(false)
@StackTrace(false)
public final class CarrierMountEvent extends jdk.jfr.Event {
    @Label("Carrier Thread Id")
    public long carrierThreadId;

    @Label("Virtual Thread Id")
    public long virtualThreadId;

    @Label("Mounted At")
    @Description("System.nanoTime() when the carrier began to run the virtual thread")
    public long mountNanos;

    @Label("Unmounted At")
    @Description("System.nanoTime() when the carrier stopped running it")
    public long unmountNanos;

    @Label("Nano Time")
    @Description("System.nanoTime() at this event's start time")
    public long nanoTime;

    @Label("Intervals Lost")
    @Description("Mount intervals of this carrier dropped since its previous event because lockscope's buffer was full")
    public long lostIntervals;
}
