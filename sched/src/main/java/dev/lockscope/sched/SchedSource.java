package dev.lockscope.sched;

/** Where a {@link SchedTrace} came from. */
public enum SchedSource {
    /** perf context-switch records: exact, event-based, nanosecond timestamps. */
    PERF,
    /** Periodic /proc/&lt;pid&gt;/task/*&#47;schedstat samples: running time exact, overlap estimated. */
    SCHEDSTAT;

    public String fileName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
