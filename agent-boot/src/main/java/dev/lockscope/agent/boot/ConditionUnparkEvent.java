package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The unpark of a thread awaiting a {@code Condition} (parked on an AQS {@code ConditionObject}): the fields
 * of {@link UnparkEvent} without the releasing thread's stack. The report lists such a wait as conditional
 * waiting with the thread that ended it; a condition has no owner, so owner blame reads no stack there, and
 * walking one cost a second stack walk per hand-off on a pool's {@code await} (commons-pool2: every borrow
 * that waits). Written only for a park that is recorded: with no stack, it has no call site to teach.
 */
@Name(EventNames.CONDITION_UNPARK)
@Label("Condition Unpark")
@Category({"lockscope", "Lock Contention"})
@Description("A thread woke a thread awaiting a java.util.concurrent Condition; no stack")
@Enabled(false)
@StackTrace(false)
public final class ConditionUnparkEvent extends AbstractUnparkEvent {
}
