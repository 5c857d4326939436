package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One pass through the contended acquire path of an AbstractQueuedSynchronizer
 * ({@code AQS.acquire(Node, int, boolean, boolean, boolean, long)}), which the fast path enters only
 * when the first try failed. Spans all parks, spins and retries of one acquisition.
 */
@Name(EventNames.ACQUIRE)
@Label("Contended Acquire")
@Category({"lockscope", "Lock Contention"})
@Description("A contended acquisition of an AbstractQueuedSynchronizer, from the failed first try to success or failure")
@Enabled(false)
@StackTrace(false)
public final class AcquireEvent extends jdk.jfr.Event {
    @Label("Synchronizer Class")
    public String syncClass;

    @Label("Synchronizer Identity Hash")
    public int syncHash;

    @Label("Shared")
    @Description("Shared (e.g. read lock, semaphore) rather than exclusive acquisition")
    public boolean shared;

    @Label("Owner Java Thread Id At Start")
    public long ownerTid;

    @Label("Owner Thread Name At Start")
    public String ownerName;

    @Label("Acquired")
    @Description("False when the acquisition was interrupted or timed out")
    public boolean acquired;
}
