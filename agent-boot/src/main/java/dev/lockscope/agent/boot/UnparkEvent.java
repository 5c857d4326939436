package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A thread unparked a thread that was parked on a blocker. Committed after the real unpark has run,
 * so the stack walk of the releasing thread happens after the lock was released and after the
 * waiter was woken. Unparks of threads with no blocker are not recorded, and the releaser's stack is
 * walked only when it will be used: when the target had been parked at least the recording threshold,
 * or when this thread has not yet recorded an unpark of a thread parked on that blocker.
 *
 * <p>{@code handoff} is the target thread's own unpark counter after this unpark incremented it; the
 * park it ended is the target's {@link ParkEvent} with {@code handoffAtPark + 1 == handoff}.
 */
@Name(EventNames.UNPARK)
@Label("Unpark")
@Category({"lockscope", "Lock Contention"})
@Description("A thread woke a thread parked on a java.util.concurrent blocker; the stack is the releasing code")
@Enabled(false)
@StackTrace(true)
public final class UnparkEvent extends jdk.jfr.Event {
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
