package dev.lockscope.report.model;

import java.util.List;

/**
 * Per thread, the spans it spent running, blocked, parked, waiting and sleeping, bounded for the
 * page (see {@link ThreadTimeline}).
 *
 * @param states  the state names, indexed by a span's state
 * @param locks    lock labels ({@code class@id}), indexed by a span's lock
 * @param carriers carrier thread names, indexed by the lock column of a {@code mounted} span: the virtual
 *                 thread's row says when it ran on which carrier (recorded with {@code --sched}, JDK 21+)
 * @param threads  the threads kept, most time off-CPU first
 */
public record Timeline(long durationMicros, List<String> states, List<String> locks, List<String> carriers,
                       List<Track> threads, int threadsLeftOut, long spansLeftOut) {
    public Timeline {
        states = List.copyOf(states);
        locks = List.copyOf(locks);
        carriers = List.copyOf(carriers);
        threads = List.copyOf(threads);
    }

    /**
     * One thread's spans as a flat array of {@code [begin µs, end µs, state, lock index or -1]} (for a
     * {@code mounted} span the carrier's index)
     * relative to the recording start, in begin order.
     */
    public record Track(String name, long javaTid, long[] spans) {
    }
}
