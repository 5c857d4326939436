package dev.lockscope.agent.boot;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Timespan;

/**
 * The counts every deep-mode statistics event carries (JLM's per-lock statistics); {@link DeepLockEvent}
 * and {@link DeepSiteEvent} add what they count them of. JFR includes an abstract event class's fields
 * in its subclasses' events.
 */
abstract class DeepCountsEvent extends jdk.jfr.Event {
    @Label("Gets")
    public long gets;
    @Label("Non-Recursive")
    public long nonRecursive;
    @Label("Slow")
    @Description("Non-recursive acquisitions begun while another thread held the lock")
    public long slow;
    @Label("Recursive")
    public long recursive;
    @Label("Try Failures")
    public long tryFailures;
    @Label("Waits")
    public long waits;
    @Label("Notifies")
    public long notifies;
    @Label("Locked Sections")
    public long sections;
    @Label("Hold Time")
    @Timespan(Timespan.NANOSECONDS)
    public long holdNanos;
    @Label("Longest Hold")
    @Timespan(Timespan.NANOSECONDS)
    public long maxHoldNanos;
    @Label("Hold Histogram")
    @Description("Locked sections per decade of hold time, <1us to >=1s, comma-separated (sampled sections weighted)")
    public String holdHistogram;
    @Label("Blocked")
    @Description("Slow acquisitions in which the thread blocked in the JVM (monitors) or parked (java.util.concurrent locks)")
    public long blocked;
    @Label("Timed Sections")
    @Description("Locked sections whose hold was timed (all of an object's first 1,024, then one in 16)")
    public long timedSections;

    /** Fills the counts: gets, non-recursive, slow, recursive, waits, notifies, sections, try failures, hold, longest hold. */
    void counts(long gets, long nonRecursive, long slow, long recursive, long waits, long notifies, long sections,
                long tryFailures, long holdNanos, long maxHoldNanos, long[] histogram, long blocked, long timedSections) {
        this.blocked = blocked;
        this.timedSections = timedSections;
        this.gets = gets;
        this.nonRecursive = nonRecursive;
        this.slow = slow;
        this.recursive = recursive;
        this.waits = waits;
        this.notifies = notifies;
        this.sections = sections;
        this.tryFailures = tryFailures;
        this.holdNanos = holdNanos;
        this.maxHoldNanos = maxHoldNanos;
        this.holdHistogram = dev.lockscope.core.HoldHistogram.format(histogram);
    }
}
