package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A parked thread returned from park. Its start time is the park begin, so the JFR duration is the
 * time parked. No stack trace: the woken thread is about to take the lock, and walking its stack
 * here would lengthen the hand-off.
 *
 * <p>The unpark that ended this park is the first {@link UnparkEvent} targeting this thread with
 * {@code beginSeq < seq <= this.seq}: unpark takes its number before it wakes the target, and the
 * target reads the counter after it wakes.
 */
@Name(EventNames.PARK_END)
@Label("Park End")
@Category({"lockscope", "Lock Contention"})
@Description("A thread parked on a java.util.concurrent blocker was woken; the duration is the time parked")
@Enabled(false)
@StackTrace(false)
public final class ParkEndEvent extends jdk.jfr.Event {
    @Label("Sequence Number")
    @Description("Global sequence counter read after waking")
    public long seq;

    @Label("Begin Sequence Number")
    @Description("Sequence number of the matching Park Begin")
    public long beginSeq;

    @Label("Blocker Class")
    public String blockerClass;

    @Label("Blocker Identity Hash")
    public int blockerHash;

    @Label("Timed Out")
    @Description("The park had a timeout or deadline and woke at or after it")
    public boolean timedOut;
}
