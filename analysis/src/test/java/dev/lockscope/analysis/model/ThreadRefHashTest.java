package dev.lockscope.analysis.model;

import dev.lockscope.analysis.blame.Cause;
import dev.lockscope.analysis.blame.OwnerChain;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Owner blame sums waits in hash maps keyed by records that hold the waiter thread and, inside a
 * {@link Cause}, the owner thread, so that the record hash adds the two threads' hashes with the
 * same factor. With the record's default thread hash, keys of a waiter and an owner whose ids sum
 * to the same value collided (all virtual threads share the name "" and OS id 0), and every map
 * operation became a scan: minutes for a report of 1,000 threads. This counts collisions of keys
 * shaped like the blame collector's; it times nothing.
 */
class ThreadRefHashTest {
    /** The shape of BlameCollector's key: lock, waiter, waiter's frames, cause (owner, owner's frames, chain). */
    private record BlameKey(String lock, ThreadRef waiter, List<String> frames, Cause cause) {
    }

    @ParameterizedTest
    @CsvSource({"10000, false, 20", "100000, true, 4"})
    void keysOfWaiterAndOwnerSpreadOverTheHashTable(int threads, boolean virtual, int ownersPerWaiter) {
        ThreadRef[] refs = new ThreadRef[threads];
        for (int i = 0; i < threads; i++) {
            refs[i] = virtual ? new ThreadRef(1000 + i, 0, "", true) : new ThreadRef(1000 + i, 20_000 + i, "worker-" + i);
        }
        List<String> frames = List.of("app.Store.put:10", "app.Main.run:5");
        // every waiter with the owners just before it, as in a convoy on one lock
        int[] hashes = new int[threads * ownersPerWaiter];
        int keys = 0;
        for (int w = ownersPerWaiter; w < threads; w++) {
            for (int o = w - ownersPerWaiter; o < w; o++) {
                hashes[keys++] = new BlameKey("lock", refs[w], frames, new Cause(refs[o], frames, OwnerChain.EXACT)).hashCode();
            }
        }
        int[] used = Arrays.copyOf(hashes, keys);
        int table = Integer.highestOneBit(keys) << 1;
        int[] buckets = new int[table];
        int largest = 0;
        for (int h : used) {
            largest = Math.max(largest, ++buckets[(h ^ h >>> 16) & (table - 1)]); // HashMap's own spreading
        }
        Arrays.sort(used);
        int distinct = used.length == 0 ? 0 : 1;
        for (int i = 1; i < used.length; i++) {
            distinct += used[i] != used[i - 1] ? 1 : 0;
        }
        assertThat(distinct).as("distinct hashes of %d keys", keys).isGreaterThan((int) (0.99 * keys));
        assertThat(largest).as("largest bucket of a table of %d", table).isLessThan(16);
    }
}
