package dev.lockscope.agent.boot;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A carrier's ring of mount intervals: bounded, never blocking, its drops counted. */
class CarrierMountsTest {
    @Test
    void aFullRingDropsAndCountsUntilTheReaderHasReadIt() {
        CarrierMounts.Ring ring = new CarrierMounts.Ring(Thread.currentThread());
        for (int i = 0; i < CarrierMounts.CAPACITY; i++) {
            ring.add(10L * i, 10L * i + 5, 100 + i);
        }
        assertThat(ring.written.get()).isEqualTo(CarrierMounts.CAPACITY);
        ring.add(1, 2, 3);
        ring.add(1, 2, 3);
        assertThat(ring.lost).isEqualTo(2);
        assertThat(ring.written.get()).isEqualTo(CarrierMounts.CAPACITY);
        ring.read.lazySet(1); // the reader has taken the first interval: its slot is free again
        ring.add(7, 8, 9);
        assertThat(ring.written.get()).isEqualTo(CarrierMounts.CAPACITY + 1);
        int at = 3 * (CarrierMounts.CAPACITY & (CarrierMounts.CAPACITY - 1));
        assertThat(new long[] {ring.slots[at], ring.slots[at + 1], ring.slots[at + 2]}).containsExactly(7, 8, 9);
        int last = 3 * (CarrierMounts.CAPACITY - 1);
        assertThat(ring.slots[last + 2]).isEqualTo(100 + CarrierMounts.CAPACITY - 1); // not overwritten
    }

    @Test
    void hooksDoNothingWhileOffAndNeverThrow() {
        long failures = HookFailures.count();
        Thread t = new Thread(() -> { });
        CarrierMounts.beforeMount(t); // not active: no ring, no exception
        CarrierMounts.afterUnmount(t);
        CarrierMounts.afterUnmount(null);
        assertThat(HookFailures.count()).isEqualTo(failures);
    }
}
