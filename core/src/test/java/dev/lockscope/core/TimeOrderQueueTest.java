package dev.lockscope.core;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The queue releases entries in the order of a {@link PriorityQueue} over (time, tie), whatever the input order. */
class TimeOrderQueueTest {
    private record Entry(long time, long tie, String payload) {
    }

    private static final Comparator<Entry> ORDER = Comparator.comparingLong(Entry::time).thenComparingLong(Entry::tie);

    /**
     * Streams of a given disorder (how many entries arrive late, and by how much), released through a
     * bounded window as {@code EventOrder} does, compared with a heap of records.
     */
    @ParameterizedTest
    @CsvSource({"0.0, 0, 64", "0.1, 1000, 64", "0.5, 50, 16", "1.0, 100000, 256", "0.3, 10, 1"})
    void releasesInTheOrderOfAHeap(double lateShare, long maxLateness, int window) {
        Random random = new Random(42);
        TimeOrderQueue<String> queue = new TimeOrderQueue<>();
        PriorityQueue<Entry> reference = new PriorityQueue<>(ORDER);
        List<String> released = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        long now = 0;
        for (int i = 0; i < 20_000; i++) {
            now += random.nextInt(3); // equal times are common: the tie decides
            long time = random.nextDouble() < lateShare ? now - random.nextLong(maxLateness + 1) : now;
            long tie = (long) random.nextInt(3) << 56 | i; // a rank above an arrival number, as the callers build it
            String payload = "e" + i;
            queue.add(time, tie, payload);
            reference.add(new Entry(time, tie, payload));
            if (queue.size() > window) {
                released.add(pollChecked(queue));
                expected.add(reference.poll().payload());
            }
        }
        assertThat(queue.size()).isEqualTo(reference.size());
        while (!queue.isEmpty()) {
            released.add(pollChecked(queue));
            expected.add(reference.poll().payload());
        }
        assertThat(released).isEqualTo(expected);
    }

    /**
     * A queue that fills and drains again and again (a lock object busy, then idle), its arrays shrinking and given
     * back as it drains, entries with and without a payload mixed: still the heap's order (issue 41).
     */
    @ParameterizedTest
    @CsvSource({"0.0, 0", "0.4, 500", "1.0, 100000"})
    void fillingAndDrainingKeepsTheOrderOfAHeap(double lateShare, long maxLateness) {
        Random random = new Random(7);
        TimeOrderQueue<String> queue = new TimeOrderQueue<>();
        PriorityQueue<Entry> reference = new PriorityQueue<>(ORDER);
        long now = 0;
        int arrival = 0;
        for (int round = 0; round < 12; round++) {
            int fill = round % 3 == 0 ? 3000 : 1 + random.nextInt(40);
            for (int i = 0; i < fill; i++, arrival++) {
                now += random.nextInt(3);
                long time = random.nextDouble() < lateShare ? now - random.nextLong(maxLateness + 1) : now;
                String payload = arrival % 5 == 0 ? null : "e" + arrival;
                queue.add(time, arrival, payload);
                reference.add(new Entry(time, arrival, payload));
            }
            int keep = round % 4 == 0 ? 0 : random.nextInt(4);
            while (queue.size() > keep) {
                Entry next = reference.poll();
                assertThat(queue.poll()).isEqualTo(next.payload());
                assertThat(queue.polledTime()).isEqualTo(next.time());
                assertThat(queue.polledTie()).isEqualTo(next.tie());
            }
        }
    }

    /** The polled time and tie belong to the payload just polled (the payload names its arrival, the tie's low bits). */
    private static String pollChecked(TimeOrderQueue<String> queue) {
        String payload = queue.poll();
        assertThat(queue.polledTie() & ((1L << 56) - 1)).isEqualTo(Long.parseLong(payload.substring(1)));
        return payload;
    }

    @ParameterizedTest
    @CsvSource({"0", "3"})
    void pollingAnEmptyQueueFails(int entries) {
        TimeOrderQueue<String> queue = new TimeOrderQueue<>();
        for (int i = 0; i < entries; i++) {
            queue.add(entries - i, i, null);
        }
        for (int i = 0; i < entries; i++) {
            queue.poll();
        }
        assertThatThrownBy(queue::poll).isInstanceOf(IllegalStateException.class);
    }
}
