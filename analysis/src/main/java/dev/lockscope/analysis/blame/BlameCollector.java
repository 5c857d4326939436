package dev.lockscope.analysis.blame;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Where analyzers put what they find; sorts everything into one deterministic order at the end. */
final class BlameCollector {
    private static final Comparator<Contention> CONTENTION_ORDER = Comparator.comparingLong(Contention::beginNanos)
            .thenComparingLong(c -> c.waiter().javaTid())
            .thenComparing(Contention::lock)
            .thenComparingLong(Contention::durationNanos);
    private static final Comparator<WaitRecord> WAIT_ORDER = Comparator.comparingLong(WaitRecord::beginNanos)
            .thenComparingLong(w -> w.waiter().javaTid())
            .thenComparing(WaitRecord::lock)
            .thenComparingLong(WaitRecord::durationNanos);

    private final List<Contention> contentions = new ArrayList<>();
    private final List<WaitRecord> waits = new ArrayList<>();

    void add(Contention c) {
        if (c.durationNanos() > 0) {
            contentions.add(c);
        }
    }

    void add(WaitRecord w) {
        waits.add(w);
    }

    BlameResult result() {
        contentions.sort(CONTENTION_ORDER);
        waits.sort(WAIT_ORDER);
        return new BlameResult(contentions, waits);
    }
}
