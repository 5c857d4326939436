package dev.lockscope.sched;

import java.util.List;
import java.util.Map;

/**
 * Scheduling data of one process over a window: thread names, transitions sorted by time, and (for
 * the /proc fallback) run-queue waits.
 *
 * @param approximateReason null when exact; otherwise why the parallelism figures are estimates,
 *                          to be shown in every output
 * @param cpus              online CPUs of the machine while recording
 * @param names             OS tid to thread name (/proc comm or perf COMM, at most 15 characters)
 */
public record SchedTrace(SchedSource source, String approximateReason, long pid, int cpus,
                         long startNanos, long endNanos, Map<Integer, String> names,
                         List<Transition> transitions, List<RunQueueWait> runQueueWaits) {
    public SchedTrace {
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("window ends before it starts");
        }
        names = Map.copyOf(names);
        transitions = List.copyOf(transitions);
        runQueueWaits = List.copyOf(runQueueWaits);
    }

    public boolean approximate() {
        return approximateReason != null;
    }

    public String nameOf(int tid) {
        return names.getOrDefault(tid, "tid-" + tid);
    }
}
