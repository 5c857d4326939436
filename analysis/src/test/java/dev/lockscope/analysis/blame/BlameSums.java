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
}
