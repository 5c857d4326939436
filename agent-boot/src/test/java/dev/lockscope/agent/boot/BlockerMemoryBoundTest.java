package dev.lockscope.agent.boot;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry's memory under a flood of distinct blockers, each first parked on from a distinct stack 100
 * frames deep (issue 17 (b): a fresh lock per request, whose records kept their first stacks as strings and
 * filled a 256 MB heap). The hooks are called directly, as in {@link ParkHooksIT}.
 */
class BlockerMemoryBoundTest {
    private static final long BOUND = 1L << 20;

    @AfterEach
    void restoreDefaults() {
        BlockerRegistry.configure(0, 50_000);
        BlockerRegistry.removeDead();
    }

    @Test
    void liveBlockersWithDistinctStacksStayWithinTheByteBound() {
        BlockerRegistry.configure(0, 1_000_000, BOUND);
        HookActivation.activate();
        long before = usedHeapAfterGc();
        long untrackedBefore = BlockerRegistry.untracked();
        List<Object> blockers = new ArrayList<>();
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            Object blocker = new Object();
            blockers.add(blocker); // alive: nothing can be dropped
            parkFromStack(blocker, i, 14);
        }
        long retained = usedHeapAfterGc() - before;
        assertThat(BlockerRegistry.bytesInUse()).isLessThanOrEqualTo(BOUND + 16 * 1024);
        assertThat(BlockerRegistry.untracked() - untrackedBefore).as("parks on blockers past the bound").isPositive();
        // Unbounded (before the bound), 20,000 records with 64 frames of fresh strings each (about 100 bytes a
        // frame) retain over 100 MB; bounded, records and shared stacks retain about BOUND. The test's own
        // 20,000 blockers and their list take about 0.5 MB.
        assertThat(retained).as("heap retained by %d live blockers' records", n).isLessThan(16L << 20);
        assertThat(blockers).hasSize(n);
    }

    @Test
    void recordsOfCollectedBlockersAreDroppedWithoutFreeOnPrint() throws Exception {
        BlockerRegistry.configure(0, 1_000_000, BOUND);
        HookActivation.activate();
        BlockerRegistry.removeDead();
        int perBatch = (int) (BOUND / BlockerRegistry.RECORD_BYTES / 2);
        long untrackedBefore = BlockerRegistry.untracked();
        for (int batch = 0; batch < 10; batch++) {
            for (int i = 0; i < perBatch; i++) {
                parkFromStack(new Object(), i, 3); // garbage right after its park, like a lock per request
            }
            long inUse = BlockerRegistry.bytesInUse();
            for (int tries = 0; tries < 100 && BlockerRegistry.bytesInUse() >= inUse; tries++) {
                System.gc();
                Thread.sleep(20); // the reference handler queues the collected keys
                BlockerRegistry.dropCollected();
            }
        }
        // Ten batches of half the bound each: without dropping, the second half of them would be untracked.
        assertThat(BlockerRegistry.untracked() - untrackedBefore).isZero();
        assertThat(BlockerRegistry.bytesInUse()).isLessThanOrEqualTo(BOUND);
    }

    /**
     * Parks once on {@code blocker} from a stack 50 frames deeper than here whose top {@code bits} frames
     * spell the low bits of {@code shape}: distinct stacks within the 64 frames kept.
     */
    private static void parkFromStack(Object blocker, int shape, int bits) {
        deeper(blocker, shape, bits, 50);
    }

    private static void deeper(Object blocker, int shape, int bits, int depth) {
        if (depth > 0) {
            deeper(blocker, shape, bits, depth - 1);
        } else {
            spell(blocker, shape, bits);
        }
    }

    private static void spell(Object blocker, int shape, int bits) {
        if (bits == 0) {
            ParkHooks.parkEnd(ParkHooks.parkBegin(blocker, 0, 0));
        } else if ((shape & 1) == 0) {
            zero(blocker, shape >>> 1, bits - 1);
        } else {
            one(blocker, shape >>> 1, bits - 1);
        }
    }

    private static void zero(Object blocker, int shape, int bits) {
        spell(blocker, shape, bits);
    }

    private static void one(Object blocker, int shape, int bits) {
        spell(blocker, shape, bits);
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
