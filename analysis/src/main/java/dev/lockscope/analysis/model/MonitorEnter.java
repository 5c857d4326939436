package dev.lockscope.analysis.model;

import java.util.List;

/**
 * {@code jdk.JavaMonitorEnter}: {@code thread} was blocked entering a monitor from begin to end.
 *
 * @param address       the JVM's monitor address (stable while the monitor stays inflated)
 * @param previousOwner the thread that released the monitor before this thread got it (JFR's
 *                      previousOwner: the last holder before acquisition), or null
 */
public record MonitorEnter(ThreadRef thread, String monitorClass, long address, long beginNanos, long endNanos,
                           ThreadRef previousOwner, List<String> frames) {
}
