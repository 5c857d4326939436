package dev.lockscope.core;

import java.util.ArrayList;
import java.util.List;

/**
 * How lockscope reads its own {@code lockscope.VirtualMonitorEnter} event (a virtual thread blocked on
 * a monitor while unmounted, JDK 24+), in the agent's table and in reports alike, so that both name
 * the same monitors.
 */
public final class VirtualMonitorEnters {
    private VirtualMonitorEnters() {
    }

    /** The {@code frames} field: one frame a line, innermost first; a mutable list (the reader interns in place). */
    public static List<String> frames(String joined) {
        if (joined == null || joined.isEmpty()) {
            return new ArrayList<>();
        }
        return new ArrayList<>(List.of(joined.split("\n")));
    }

    /**
     * The monitor's class, from the {@code monitorClass} field; a JDK without {@code ThreadSnapshot}
     * (24) records none, and then every monitor entered at one site is one monitor, named by the site.
     */
    public static String monitorClass(String recorded, List<String> frames) {
        if (recorded == null && !frames.isEmpty()) {
            return "(monitor entered at " + frames.get(0) + ")";
        }
        return recorded == null ? "?" : recorded;
    }

    /** The monitor's identity: its identity hash, or its site's when the class was not recorded. */
    public static long identity(String recordedClass, int monitorHash, List<String> frames) {
        if (recordedClass == null && !frames.isEmpty()) {
            return Integer.toUnsignedLong(frames.get(0).hashCode());
        }
        return Integer.toUnsignedLong(monitorHash);
    }
}
