package dev.lockscope.analysis.model;

import dev.lockscope.core.EventNames;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What is known of a recording once it has been read: where it came from, its time span (first
 * event's start to last event's end, nanoseconds since the epoch) and every thread seen.
 *
 * @param threads  every thread seen, by Java thread id, with its latest name
 * @param warnings what the user should know about the file before trusting the numbers (damaged
 *                 chunks skipped and how much was lost, no lockscope events); empty for a clean file
 * @param declaredEventTypes the event types the recording's metadata declares, written or not: the
 *                 agent registers lockscope's whether or not it wrote any, so a recording made with
 *                 the agent in which no thread ever parked on a blocker has them and no events of
 *                 them (nothing to report, rather than nothing recorded)
 */
public record RecordingInfo(Path source, long startNanos, long endNanos, Map<Long, ThreadRef> threads,
                            List<String> warnings, Set<String> declaredEventTypes) {
    public RecordingInfo {
        threads = Map.copyOf(threads);
        warnings = List.copyOf(warnings);
        declaredEventTypes = Set.copyOf(declaredEventTypes);
    }

    public RecordingInfo(Path source, long startNanos, long endNanos, Map<Long, ThreadRef> threads) {
        this(source, startNanos, endNanos, threads, List.of(), Set.of());
    }

    /** Whether the lockscope agent made the recording: its event types are declared. */
    public boolean madeByAgent() {
        return declaredEventTypes.stream().anyMatch(t -> t.startsWith(EventNames.LOCKSCOPE_PREFIX));
    }

    public long durationNanos() {
        return endNanos - startNanos;
    }
}
