package dev.lockscope.agent.boot;

import dev.lockscope.core.EventNames;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Deep mode: the statistics of one lock object since profiling started (JLM's per-monitor row, and the
 * counts behind Kawachiya's thread-locality analyses), written at every chunk end; the last one of an
 * object holds the totals of the run.
 */
@Name(EventNames.DEEP_LOCK)
@Label("Deep Lock Statistics")
@Category({"lockscope", "Deep Mode"})
@Description("Every acquisition of one lock object in the classes selected for deep mode")
@Enabled(false)
@StackTrace(false)
public final class DeepLockEvent extends DeepCountsEvent {
    @Label("Lock Class")
    public String lockClass;
    @Label("Lock Identity Hash")
    public int lockHash;
    @Label("Kind")
    @Description("monitor or juc (a java.util.concurrent lock)")
    public String kind;
    @Label("First Locker")
    public String firstLocker;
    @Label("First Site")
    public String firstSite;
    @Label("Locked By Others")
    @Description("A thread other than the first locker has locked it")
    public boolean lockedByOthers;
    @Label("First Repetition")
    @Description("Acquisitions in the leading run of the first locker, recursive ones included")
    public long firstRunAll;
    @Label("First Repetition, Non-Recursive")
    public long firstRunNonRecursive;
    @Label("First Locker, Non-Recursive")
    @Description("Outermost acquisitions by the first locker over the whole run")
    public long firstLockerNonRecursive;
    @Label("Fat Sections")
    @Description("Runs of synchronisation operations (acquisitions, releases, waits, notifies) made while another thread tried to acquire the lock or waited for a notification on it")
    public long fatSections;
    @Label("Flat Sections")
    @Description("Runs of synchronisation operations made while no other thread did")
    public long flatSections;
    @Label("Fat Operations")
    @Description("Synchronisation operations in fat sections")
    public long fatOps;
    @Label("Flat Operations")
    @Description("Synchronisation operations in flat sections")
    public long flatOps;
}
