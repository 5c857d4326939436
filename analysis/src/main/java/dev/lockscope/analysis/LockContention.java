package dev.lockscope.analysis;

import dev.lockscope.core.LockMetrics;

import java.nio.file.Path;
import java.util.List;

/**
 * The park-contention result of one recording: what the text and JSON reports render.
 *
 * @param source              the recording file
 * @param startNanos          first event of the recording, nanoseconds since the epoch
 * @param durationNanos       the recording's length, used as TotalExecutionTime (seed 000 §3.7.12)
 * @param locks               park blockers and contended monitors at or above the print threshold,
 *                            ranked by {@link dev.lockscope.core.LockTable#RANKING}
 * @param belowPrintThreshold how many collected locks the print threshold left out
 */
public record LockContention(Path source, long startNanos, long durationNanos, ContentionOptions options,
                             List<LockMetrics> locks, int belowPrintThreshold) {
    public LockContention {
        locks = List.copyOf(locks);
    }
}
