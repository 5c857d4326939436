package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How much of one lock's contention falls in each {@link OwnerChain} class: how far its blame can be
 * trusted.
 *
 * @param nanosByChain every class, in enum order, zero included
 */
public record LockChainShare(LockId lock, long totalNanos, Map<OwnerChain, Long> nanosByChain) {
    public LockChainShare {
        nanosByChain = Map.copyOf(nanosByChain);
    }

    public double share(OwnerChain chain) {
        return totalNanos == 0 ? 0 : (double) nanosByChain.getOrDefault(chain, 0L) / totalNanos;
    }

    /** One entry per lock, by total descending, then lock. */
    public static List<LockChainShare> of(List<Contention> contentions) {
        Map<LockId, EnumMap<OwnerChain, Long>> byLock = new TreeMap<>();
        for (Contention c : contentions) {
            byLock.computeIfAbsent(c.lock(), k -> zeroes()).merge(c.cause().chain(), c.nanos(), Long::sum);
        }
        List<LockChainShare> out = new ArrayList<>();
        byLock.forEach((lock, m) -> out.add(new LockChainShare(lock, m.values().stream().mapToLong(Long::longValue).sum(), m)));
        out.sort(Comparator.comparingLong(LockChainShare::totalNanos).reversed().thenComparing(LockChainShare::lock));
        return out;
    }

    private static EnumMap<OwnerChain, Long> zeroes() {
        EnumMap<OwnerChain, Long> m = new EnumMap<>(OwnerChain.class);
        for (OwnerChain c : OwnerChain.values()) {
            m.put(c, 0L);
        }
        return m;
    }
}
