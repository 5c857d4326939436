package dev.lockscope.analysis.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** How lockscope names virtual threads, and what it infers about their monitor waits. */
public final class VirtualThreads {
    /**
     * Stands for "the thread that acquired this monitor before" in a virtual thread's monitor wait
     * until {@link EventOrder} fills it in, in end-time order: the JVM records no owner for a virtual
     * thread blocked while unmounted (JDK 24+), so the owner is the previous contended acquirer.
     */
    static final ThreadRef PREVIOUS_ACQUIRER = new ThreadRef(-1, 0, "(previous acquirer)");

    private final Map<String, ThreadRef> lastAcquirer = new HashMap<>();

    /** {@code virtual#<id>}, or {@code <name> (virtual#<id>)} when the thread has a name. */
    public static String displayName(long javaTid, String name) {
        String id = "virtual#" + javaTid;
        return name == null || name.isEmpty() ? id : name + " (" + id + ")";
    }

    /** The {@code frames} field of {@code lockscope.VirtualMonitorEnter}: one frame a line, innermost first. */
    static List<String> parseFrames(String frames) {
        if (frames == null || frames.isEmpty()) {
            return List.of();
        }
        return new ArrayList<>(List.of(frames.split("\n")));
    }

    /** Fills in the previous acquirer of a virtual thread's monitor wait; call in end-time order. */
    MonitorEnter withOwner(MonitorEnter e) {
        String key = e.monitorClass() + "@" + e.address();
        if (e.previousOwner() != PREVIOUS_ACQUIRER) {
            return e;
        }
        ThreadRef previous = lastAcquirer.put(key, e.thread());
        return new MonitorEnter(e.thread(), e.monitorClass(), e.address(), e.beginNanos(), e.endNanos(),
                previous, e.frames());
    }
}
