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
 * The stack budget ({@link StackBudget}) and what it refused since profiling started, written with every batch of
 * {@link LockSummaryEvent}s (so the last one of a recording holds the whole run's counts).
 */
@Name(EventNames.STACK_BUDGET)
@Label("Stack Budget")
@Category({"lockscope", "Lock Contention"})
@Description("Events with a stack the agent writes at most a second, and the park and unpark events it refused")
@Enabled(false)
@StackTrace(false)
public final class StackBudgetEvent extends jdk.jfr.Event {
    @Label("Budget")
    @Description("Events with a stack (parks and unparks together) written at most a second; 0: no budget")
    public long perSecond;

    @Label("Parks Dropped")
    @Description("Park events not written because the second's budget was spent")
    public long parksDropped;

    @Label("Waiting Dropped")
    @Description("The waiting those parks stood for (sampled ones by their weight)")
    @Timespan(Timespan.NANOSECONDS)
    public long parkNanosDropped;

    @Label("Unparks Dropped")
    @Description("Unpark events (the releaser's stack) not written because the second's budget was spent")
    public long unparksDropped;

    @Label("Batch")
    @Description("The agent's write of summaries this one belongs to, counting from 1")
    public long batch;
}
