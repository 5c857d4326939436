package dev.lockscope.analysis.model;

import java.nio.file.Path;
import java.util.Map;

/**
 * What is known of a recording once it has been read: where it came from, its time span (first
 * event's start to last event's end, nanoseconds since the epoch) and every thread seen.
 *
 * @param threads every thread seen, by Java thread id, with its latest name
 */
public record RecordingInfo(Path source, long startNanos, long endNanos, Map<Long, ThreadRef> threads) {
    public RecordingInfo {
        threads = Map.copyOf(threads);
    }

    public long durationNanos() {
        return endNanos - startNanos;
    }
}
