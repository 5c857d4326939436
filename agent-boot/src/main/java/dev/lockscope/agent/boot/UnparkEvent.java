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
 * walked only when it will be used: when the target's park will be recorded (parked at least the recording
 * threshold, and at least {@code sampleBelow} or picked by this unpark's draw, see ParkSampling#standsFor), or
 * when this thread has not yet recorded an unpark of a thread parked on that blocker; and never for
 * a target awaiting a {@code Condition} ({@link ConditionUnparkEvent}).
 */
@Name(EventNames.UNPARK)
@Label("Unpark")
@Category({"lockscope", "Lock Contention"})
@Description("A thread woke a thread parked on a java.util.concurrent blocker; the stack is the releasing code")
@Enabled(false)
@StackTrace(true)
public final class UnparkEvent extends AbstractUnparkEvent {
    @Label("Unrecorded Unparks Before")
    @Description("Unparks of a thread waiting for a lock that this thread made without recording them, before this one "
            + "(sampled short waits): a hold measured between two hand-offs is one hold only if this did not change")
    public long unrecordedBefore;
}
