package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** Deep mode: the statistics of one instrumented site, over every object locked there, written at every chunk end. */
@Name(EventNames.DEEP_SITE)
@Label("Deep Site Statistics")
@Category({"lockscope", "Deep Mode"})
@Description("Every acquisition at one instrumented lock site")
@Enabled(false)
@StackTrace(false)
public final class DeepSiteEvent extends DeepCountsEvent {
    @Label("Site")
    @Description("package.Class.method:line")
    public String site;
    @Label("Kind")
    @Description("monitorenter, synchronized-method, lock, wait or notify")
    public String kind;
}
