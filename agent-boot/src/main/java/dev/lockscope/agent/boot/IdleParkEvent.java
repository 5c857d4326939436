package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A park on a blocker whose first park was at an idle place ({@link dev.lockscope.core.IdlePlaces}: a
 * pool worker waiting for work): the fields of {@link ParkEvent} without the waiter's stack, and no
 * {@link UnparkEvent} for the unpark that ends it. On a server most parks are such waits (92% of a
 * Jetty recording's), and the report lists them as idle, without owner blame; their stack is the
 * blocker's first one (in its {@link LockSummaryEvent}). Same matching fields as {@link ParkEvent}. With
 * sampling on ({@code sampleBelow} above 0), one shorter than 10 ms (or than {@code sampleBelow}, if longer)
 * is recorded with probability (length)/that and {@code standsForNanos} says so, as for a sampled
 * {@link ParkEvent}; the exact totals are in the summaries as for every park.
 */
@Name(EventNames.IDLE_PARK)
@Label("Idle Park")
@Category({"lockscope", "Lock Contention"})
@Description("A thread parked on a blocker first parked on where a worker waits for work (a pool's queue); the duration is the time parked; no stack")
@Enabled(false)
@StackTrace(false)
public final class IdleParkEvent extends AbstractParkEvent {
}
