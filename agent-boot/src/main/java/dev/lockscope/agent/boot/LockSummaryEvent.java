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

/**
 * The exact tally of the J9 park-contention report of one blocker, from the agent's live counters, written at the end of every
 * chunk (JFR's {@code endChunk} period: at every rotation and when the recording stops), so the last
 * one of each blocker in a recording holds the totals of the whole run, however many parks the
 * recording threshold left out. With them, one per lock site, the summed tallies of the site's
 * blockers the GC collected (whose records the agent dropped): each write is one batch, which holds
 * every blocker then live and every collected one, so {@code lockscope report} reads the latest batch,
 * and the agent's table at exit prints the very snapshot the final one was written from.
 */
@Name(EventNames.LOCK_SUMMARY)
@Label("Lock Summary")
@Category({"lockscope", "Lock Contention"})
@Description("Exact park-contention totals of one blocker since profiling started")
@Enabled(false)
@StackTrace(false)
@Period("endChunk")
public final class LockSummaryEvent extends jdk.jfr.Event {
    @Label("Blocker Class")
    public String blockerClass;

    @Label("Blocker Identity Hash")
    public int blockerHash;

    @Label("Collection Threshold")
    @Description("Parks before collection started (the J9 park-contention report's collection threshold)")
    public long collectionThreshold;

    @Label("Collecting")
    public boolean collecting;

    @Label("Times Parked")
    public long timesParked;

    @Label("Parked Now")
    public int parkedNow;

    @Label("Peak Parked")
    public int peakParked;

    @Label("Parking Thread-Time")
    @Timespan(Timespan.NANOSECONDS)
    public long threadTimeNanos;

    @Label("Parking Real-Time")
    @Timespan(Timespan.NANOSECONDS)
    public long realTimeNanos;

    @Label("Life Time")
    @Description("Time from the first to the last collected park or wake-up")
    @Timespan(Timespan.NANOSECONDS)
    public long lifeTimeNanos;

    @Label("First Thread")
    @Description("The thread whose park started collection")
    public String firstThread;

    @Label("First Frames")
    @Description("Its call chain, innermost first, one package.Class.method:line per line")
    public String firstFrames;

    @Label("Collected Objects")
    @Description("0 for one blocker's tally; N for the summed tallies of N blockers of one lock site that the GC "
            + "collected (blocker hash 0; first thread and frames of the earliest)")
    public int collectedObjects;

    @Label("Site Real-Time")
    @Description("The real-time of the blocker's lock site (the union of the waits of all its objects, collected ones "
            + "included), as the agent's table prints it; 0 when the site was not measured")
    @Timespan(Timespan.NANOSECONDS)
    public long siteRealTimeNanos;

    @Label("Batch")
    @Description("The agent's write of summaries this one belongs to, counting from 1")
    public long batch;
}
