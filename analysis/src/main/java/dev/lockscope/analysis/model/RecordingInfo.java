package dev.lockscope.analysis.model;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What is known of a recording once it has been read: where it came from, its time span (first
 * event's start to last event's end, nanoseconds since the epoch) and every thread seen.
 *
 * @param threads  every thread seen, by Java thread id, with its latest name
 * @param warnings what the user should know about the file before trusting the numbers (damaged
 *                 chunks skipped and how much was lost, no lockscope events); empty for a clean file
 */
public record RecordingInfo(Path source, long startNanos, long endNanos, Map<Long, ThreadRef> threads,
                            List<String> warnings) {
    public RecordingInfo {
        threads = Map.copyOf(threads);
        warnings = List.copyOf(warnings);
    }

    public RecordingInfo(Path source, long startNanos, long endNanos, Map<Long, ThreadRef> threads) {
        this(source, startNanos, endNanos, threads, List.of());
    }

    public long durationNanos() {
        return endNanos - startNanos;
    }
}
