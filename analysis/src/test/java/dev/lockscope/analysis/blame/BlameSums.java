package dev.lockscope.analysis.blame;

import java.util.Map;
import java.util.TreeMap;

/** Test helper: contention of one waiter, in ms, by owner thread name ("?" = unknown owner). */
final class BlameSums {
    private BlameSums() {
    }

    static Map<String, Double> byOwner(BlameResult r, String waiter) {
        Map<String, Double> out = new TreeMap<>();
        for (Contention c : r.contentions()) {
            if (c.waiter().name().equals(waiter)) {
                out.merge(c.cause().owner().name(), c.nanos() / 1e6, Double::sum);
            }
        }
        return out;
    }

    /** Contention of one waiter, in ms, by the owner's chain (frames joined by " <- "). */
    static Map<String, Double> byOwnerChain(BlameResult r, String waiter) {
        Map<String, Double> out = new TreeMap<>();
        for (Contention c : r.contentions()) {
            if (c.waiter().name().equals(waiter)) {
                out.merge(String.join(" <- ", c.cause().frames()), c.nanos() / 1e6, Double::sum);
            }
        }
        return out;
    }
}
