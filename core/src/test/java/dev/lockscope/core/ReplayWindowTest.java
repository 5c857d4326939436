package dev.lockscope.core;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayWindowTest {

    private static LockWaits lock() {
        return new LockWaits(LockKind.MONITOR, "M", "1", 0);
    }

    /** Waits fed in end order (as JFR writes monitor events), each of two points on its lock. */
    private static void feedInEndOrder(ReplayWindow window, LockWaits lock, List<long[]> waits) {
        List<long[]> byEnd = new ArrayList<>(waits);
        byEnd.sort(Comparator.comparingLong(w -> w[1]));
        for (long[] w : byEnd) {
            lock.add(w[0], w[1], "t", List.of());
            window.added(lock, 2, w[1]);
        }
    }

    /** The i-th wait begins in [40i, 40i + 40): no more than five waits have a point in any 100 ns. */
    private static List<long[]> waits(List<Integer> offsets, List<Integer> lengths) {
        List<long[]> waits = new ArrayList<>();
        for (int i = 0; i < Math.min(offsets.size(), lengths.size()); i++) {
            long begin = 40L * i + offsets.get(i);
            waits.add(new long[] {begin, begin + lengths.get(i)});
        }
        return waits;
    }

    /**
     * Waits no longer than the window replay as if every point were held to the end, though it holds at most ten
     * waits and releases points several times.
     */
    @Property(tries = 300)
    void waitsShorterThanTheWindowReplayExactly(@ForAll @Size(max = 30) List<@IntRange(min = 0, max = 39) Integer> offsets,
                                               @ForAll @Size(max = 30) List<@IntRange(min = 0, max = 50) Integer> lengths) {
        List<long[]> waits = waits(offsets, lengths);
        LockWaits windowed = lock();
        feedInEndOrder(new ReplayWindow(50, 20), windowed, waits);
        LockWaits whole = lock();
        feedInEndOrder(new ReplayWindow(Long.MAX_VALUE / 4, Integer.MAX_VALUE), whole, waits);
        LockMetrics a = windowed.metrics(1);
        LockMetrics b = whole.metrics(1);
        assertThat(a == null ? null : a.tally()).isEqualTo(b == null ? null : b.tally());
    }

    /** Denser than the window holds: the window shrinks, memory stays bounded, thread-time stays the sum. */
    @Test
    void aDenseStreamStaysWithinTheBound() {
        ReplayWindow window = new ReplayWindow(1_000_000_000L, 64);
        List<LockWaits> locks = List.of(lock(), lock(), lock());
        long sum = 0;
        long maxHeld = 0;
        for (int i = 0; i < 10_000; i++) {
            long end = i * 1000L;
            long begin = end - (i % 7) * 3000L; // up to 18 us long: begins arrive after later ends
            LockWaits lock = locks.get(i % 3);
            lock.add(begin, end, "t", List.of());
            window.added(lock, 2, end);
            sum += end - begin;
            maxHeld = Math.max(maxHeld, window.points());
        }
        assertThat(maxHeld).isLessThanOrEqualTo(64);
        long threadTime = 0;
        for (LockWaits l : locks) {
            threadTime += l.metrics(1).threadTimeNanos();
        }
        assertThat(threadTime).isEqualTo(sum);
    }

    @Test
    void aRemovedLockNoLongerCounts() {
        ReplayWindow window = new ReplayWindow(100, 100);
        LockWaits lock = lock();
        lock.add(0, 10, "t", List.of());
        window.added(lock, 2, 10);
        assertThat(window.points()).isEqualTo(2);
        window.remove(lock);
        assertThat(window.points()).isZero();
    }
}
