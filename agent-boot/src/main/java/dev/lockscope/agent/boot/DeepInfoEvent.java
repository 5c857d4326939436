package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** Deep mode itself: what it selected and instrumented, what it could not track, and what a probe costs. */
@Name(EventNames.DEEP_INFO)
@Label("Deep Mode")
@Category({"lockscope", "Deep Mode"})
@Enabled(false)
@StackTrace(false)
@Period("endChunk")
public final class DeepInfoEvent extends jdk.jfr.Event {
    @Label("Selection")
    @Description("The --deep patterns, then ! and the --deep-exclude patterns")
    public String selection;
    @Label("Classes Instrumented")
    public long classes;
    @Label("Sites Instrumented")
    public long sites;
    @Label("Untracked Acquisitions")
    @Description("Acquisitions of objects beyond the record limit, counted at their site only")
    public long untracked;
    @Label("Probe Cost")
    @Description("Measured at start: time the probes add to one uncontended monitor acquisition and release")
    @Timespan(Timespan.NANOSECONDS)
    public long probeNanos;
    @Label("Hold Inflation")
    @Description("Measured at start: the mean hold the probes measure for a section that only increments a counter")
    @Timespan(Timespan.NANOSECONDS)
    public long holdInflationNanos;
    @Label("Probe Failures")
    public long probeFailures;
}
