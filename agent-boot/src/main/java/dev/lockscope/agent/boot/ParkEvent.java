package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One park of a thread on a blocker: one JFR duration event per wait, committed when the thread wakes
 * (start = park begin, duration = time parked), so a recording threshold drops short parks whole. Its
 * stack is walked once, at the commit: the waiter's chain is the same when it wakes as when it parked.
 *
 * <p>Matching rule (what replaced the global sequence number): every thread has its own hand-off
 * counter, which each {@code LockSupport.unpark} of that thread increments before it wakes it. A park
 * records the counter when it began ({@code handoffAtPark}) and after it woke ({@code handoffAtWake}).
 * The unpark that ended the park is the {@link UnparkEvent} with the same {@code targetTid} and
 * {@code handoff == handoffAtPark + 1}; there is none when {@code handoffAtWake == handoffAtPark}
 * (timeout, interrupt, spurious wake-up).
 *
 * <p>Sampling ({@code sampleBelow=D}): a park shorter than D is recorded with probability (its length)/D;
 * {@code standsForNanos} then says how much waiting the event stands for, so that summing it over the recorded
 * parks estimates the total without bias (Horvitz-Thompson: each recorded park counts 1/p of itself).
 *
 * <p>Disabled by default: otherwise any JFR recording in the application would pick it up.
 * Fields hold thread ids and names, not {@code Thread}s: JDK 17 reads back a {@code Thread} field
 * that refers to another thread as null.
 */
@Name(EventNames.PARK)
@Label("Park")
@Category({"lockscope", "Lock Contention"})
@Description("A thread parked on a java.util.concurrent blocker; the duration is the time parked, the owner the blocker's exclusive owner when it parked")
@Enabled(false)
@StackTrace(true)
public final class ParkEvent extends AbstractParkEvent {
    @Label("Own Unrecorded Unparks")
    @Description("Unparks this thread had made without recording them, when it woke (see Unpark's unrecordedBefore)")
    public long unrecordedUnparks;
}
