package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Deep mode: a thread released a monitor of the selected code while another thread was waiting to enter
 * it. The stack is the holder's at the release, so owner blame knows exactly who held the monitor a
 * waiter waited for and in what code, from {@code jdk.JavaMonitorEnter} alone only estimated. Written only
 * while a thread is waiting (see {@link DeepLockRecord}), so uncontended locking writes nothing.
 */
@Name(EventNames.DEEP_RELEASE)
@Label("Contended Monitor Release")
@Category({"lockscope", "Deep Mode"})
@Description("A monitor released while another thread waited to enter it; the stack is the holding code")
@Enabled(false)
@StackTrace(true)
public final class DeepReleaseEvent extends jdk.jfr.Event {
    @Label("Lock Class")
    public String lockClass;
    @Label("Lock Identity Hash")
    public int lockHash;
    @Label("Held Nanoseconds")
    @Description("How long the monitor was held, when another thread was already waiting at the acquisition; else -1 (the hold began before anyone waited)")
    public long heldNanos;
}
