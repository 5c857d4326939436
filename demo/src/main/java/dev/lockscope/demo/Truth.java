package dev.lockscope.demo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What a scenario really did, measured by the workload itself: {@code mark("acquired")} notes the
 * current thread, the event and the wall-clock time. Printed at the end as
 * {@code truth <thread> <event> <epoch-nanos>} lines (and totals, see {@link #add}), so tests can compare blame with the real
 * timeline rather than the nominal one (a busy machine stretches sleeps and wake-ups).
 */
final class Truth {
    private static final ConcurrentLinkedQueue<String> MARKS = new ConcurrentLinkedQueue<>();
    private static final Map<String, LongAdder> TOTALS = new ConcurrentSkipListMap<>();

    private Truth() {
    }

    static void mark(String event) {
        Instant now = Instant.now();
        MARKS.add("truth " + Thread.currentThread().getName() + " " + event + " "
                + (now.getEpochSecond() * 1_000_000_000L + now.getNano()));
    }

    /** Adds to a named total, printed as {@code truth-total <name> <nanos>}: e.g. the time a chain really held a lock. */
    static void add(String name, long nanos) {
        TOTALS.computeIfAbsent(name, k -> new LongAdder()).add(nanos);
    }

    /** Links the string concatenation and clock calls once, so the first real mark is not late by milliseconds. */
    static void warmUp() {
        Instant now = Instant.now();
        String warm = "truth " + Thread.currentThread().getName() + " warm-up " + (now.getEpochSecond() * 1_000_000_000L + now.getNano());
        if (warm.isEmpty()) {
            throw new AssertionError();
        }
    }

    static List<String> lines() {
        List<String> out = new ArrayList<>(MARKS);
        TOTALS.forEach((name, total) -> out.add("truth-total " + name + " " + total.sum()));
        return out;
    }
}
