package dev.lockscope.analysis.blame;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Groups contention into {@link BlameRow}s: lock × waiter thread and chain × owner thread and chain. */
public final class BlameRows {
    private static final Comparator<BlameRow> ORDER = Comparator.comparingLong(BlameRow::nanos).reversed()
            .thenComparing(BlameRow::lock)
            .thenComparing(r -> r.waiterThread().javaTid())
            .thenComparing(r -> String.join("\n", r.waiterFrames()))
            .thenComparing(r -> r.ownerThread().javaTid())
            .thenComparing(r -> String.join("\n", r.ownerFrames()))
            .thenComparing(BlameRow::ownerChain);

    private BlameRows() {
    }

    /** @param contentions in {@link BlameResult} order: a row names its threads as its earliest contention does */
    public static List<BlameRow> of(List<Contention> contentions, ChainView view) {
        Map<String, BlameRow> rows = new TreeMap<>();
        for (Contention c : contentions) {
            List<String> waiter = view.visible(c.waiterFrames());
            List<String> owner = view.visible(c.cause().frames());
            String key = String.join("\u0000", c.lock().label(), c.lock().kind().name(),
                    Long.toString(c.waiter().javaTid()), String.join("\n", waiter),
                    Long.toString(c.cause().owner().javaTid()), String.join("\n", owner), c.cause().chain().name());
            BlameRow old = rows.get(key);
            rows.put(key, old == null
                    ? new BlameRow(c.lock(), c.waiter(), waiter, c.cause().owner(), owner, c.cause().chain(), c.nanos(), c.count())
                    : new BlameRow(old.lock(), old.waiterThread(), old.waiterFrames(), old.ownerThread(), old.ownerFrames(),
                    old.ownerChain(), old.nanos() + c.nanos(), old.count() + c.count()));
        }
        List<BlameRow> out = new ArrayList<>(rows.values());
        out.sort(ORDER);
        return out;
    }
}
