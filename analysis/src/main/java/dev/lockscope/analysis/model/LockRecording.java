package dev.lockscope.analysis.model;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything lockscope analyses, read from one JFR recording. Times are nanoseconds since the epoch.
 * Lists are in recording order sorted by begin time (ties by thread id), so analyses are deterministic.
 *
 * @param threads every thread seen, by Java thread id
 */
public record LockRecording(Path source, long startNanos, long endNanos, Map<Long, ThreadRef> threads,
                            List<ParkWait> parks, List<Unpark> unparks, List<MonitorEnter> monitorEnters,
                            List<MonitorWait> monitorWaits, List<CpuSample> cpuSamples, List<Interval> sleeps,
                            List<Interval> acquires, List<ThreadLifetime> lifetimes) {
    /** End time of a wait still in progress when the recording stopped. */
    public static final long OPEN = Long.MIN_VALUE;

    public long durationNanos() {
        return endNanos - startNanos;
    }
}
