package dev.lockscope.agent.boot;

import jdk.jfr.Description;
import jdk.jfr.Label;

/**
 * The fields of an unpark, shared by {@link UnparkEvent} (with the releasing thread's stack) and
 * {@link ConditionUnparkEvent} (without). Abstract, so JFR registers no event type for it.
 *
 * <p>{@code handoff} is the target thread's own unpark counter after this unpark incremented it; the
 * park it ended is the target's {@link ParkEvent} with {@code handoffAtPark + 1 == handoff}.
 */
public abstract class AbstractUnparkEvent extends jdk.jfr.Event {
    @Label("Hand-off Number")
    @Description("The target thread's unpark counter, incremented by this unpark")
    public long handoff;

    @Label("Target Java Thread Id")
    public long targetTid;

    @Label("Target Thread Name")
    public String targetName;

    @Label("Blocker Class")
    @Description("The target's blocker when it was unparked")
    public String blockerClass;

    @Label("Blocker Identity Hash")
    public int blockerHash;
}
