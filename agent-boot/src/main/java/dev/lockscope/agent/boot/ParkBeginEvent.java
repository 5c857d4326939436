package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;
import jdk.jfr.Timestamp;

/**
 * A thread is about to park on a blocker. Carries the waiter's stack (taken before it blocks, so off
 * the lock's critical path) and the exclusive owner of the blocker at that moment.
 *
 * <p>Disabled by default: otherwise any JFR recording in the application would pick it up.
 * Fields hold thread ids and names, not {@code Thread}s: JDK 17 reads back a {@code Thread} field
 * that refers to another thread as null (see shared/notes/agent-mechanisms-measured.md §2).
 */
@Name(EventNames.PARK_BEGIN)
@Label("Park Begin")
@Category({"lockscope", "Lock Contention"})
@Description("A thread parks on a java.util.concurrent blocker; the owner is the blocker's exclusive owner at that time")
@Enabled(false)
@StackTrace(true)
public final class ParkBeginEvent extends jdk.jfr.Event {
    @Label("Sequence Number")
    @Description("Global order of lockscope park/unpark events")
    public long seq;

    @Label("Blocker Class")
    public String blockerClass;

    @Label("Blocker Identity Hash")
    public int blockerHash;

    @Label("Owner Java Thread Id")
    @Description("Exclusive owner of an AbstractOwnableSynchronizer blocker when the thread parked; 0 if none or not known")
    public long ownerTid;

    @Label("Owner Thread Name")
    public String ownerName;

    @Label("Timeout")
    @Timespan(Timespan.NANOSECONDS)
    public long timeoutNanos;

    @Label("Deadline")
    @Timestamp(Timestamp.MILLISECONDS_SINCE_EPOCH)
    public long deadlineMillis;
}
