package dev.lockscope.agent.boot;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Timespan;
import jdk.jfr.Timestamp;

/**
 * The fields of a park, shared by {@link ParkEvent} (with the waiter's stack) and {@link IdleParkEvent}
 * (without). JFR takes the non-private fields of an event's superclasses as the event's own; this class
 * is abstract, so JFR registers no event type for it.
 */
public abstract class AbstractParkEvent extends jdk.jfr.Event {
    @Label("Blocker Class")
    public String blockerClass;

    @Label("Blocker Identity Hash")
    public int blockerHash;

    @Label("Owner Java Thread Id")
    @Description("Exclusive owner of an AbstractOwnableSynchronizer blocker when the thread parked; 0 if none or not known")
    public long ownerTid;

    @Label("Owner Thread Name")
    public String ownerName;

    @Label("Timeout")
    @Timespan(Timespan.NANOSECONDS)
    public long timeoutNanos;

    @Label("Deadline")
    @Timestamp(Timestamp.MILLISECONDS_SINCE_EPOCH)
    public long deadlineMillis;

    @Label("Timed Out")
    @Description("The park had a timeout or deadline and woke at or after it")
    public boolean timedOut;

    @Label("Hand-off Number at Park")
    @Description("This thread's unpark counter when it parked")
    public long handoffAtPark;

    @Label("Hand-off Number at Wake")
    @Description("This thread's unpark counter after it woke; greater than at park when an unpark woke it")
    public long handoffAtWake;

    @Label("Stands For")
    @Description("0: recorded for itself; else the park was sampled and stands for this much waiting (its duration divided by the probability it was recorded with)")
    @Timespan(Timespan.NANOSECONDS)
    public long standsForNanos;
}
