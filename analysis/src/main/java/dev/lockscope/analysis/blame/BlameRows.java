package dev.lockscope.analysis.blame;

import dev.lockscope.core.CallStack;
import dev.lockscope.core.LockKind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Groups contention into {@link BlameRow}s: lock × waiter thread and chain × owner thread, chain and what it did inside the hold. */
public final class BlameRows {
    private static final Comparator<BlameRow> ORDER = Comparator.comparingLong(BlameRow::nanos).reversed()
            .thenComparing(BlameRow::lock)
            .thenComparing(r -> r.waiterThread().javaTid())
            .thenComparing(BlameRow::waiterFrames, CallStack::compareJoined)
            .thenComparing(r -> r.ownerThread().javaTid())
            .thenComparing(BlameRow::ownerFrames, CallStack::compareJoined)
            .thenComparing(BlameRow::ownerChain)
            .thenComparing(BlameRow::ownerInside, CallStack::compareJoined);

    /**
     * What a row is: contention of equal label, kind, threads, visible chains and owner chain is one row.
     * A record over the lists themselves, not their joined text: a real recording has hundreds of
     * thousands of contentions, and joining their frames per contention was most of the report's allocation.
     */
    private record RowKey(String label, LockKind kind, long waiterTid, List<String> waiterFrames, long ownerTid,
                          List<String> ownerFrames, String chain, List<String> ownerInside) {
    }

    private BlameRows() {
    }

    /** @param contentions in {@link BlameResult} order: a row names its threads as its earliest contention does */
    public static List<BlameRow> of(List<Contention> contentions, ChainView view) {
        Map<RowKey, BlameRow> rows = new LinkedHashMap<>();
        // a chain's visible part once per distinct chain: contentions repeat few chains, and parsing
        // every frame of every contention's two chains was most of this method's time
        Map<List<String>, List<String>> visible = new HashMap<>();
        for (Contention c : contentions) {
            List<String> waiter = visible.computeIfAbsent(c.waiterFrames(), view::visible);
            List<String> owner = visible.computeIfAbsent(c.cause().frames(), view::visible);
            RowKey key = new RowKey(c.lock().label(), c.lock().kind(), c.waiter().javaTid(), waiter,
                    c.cause().owner().javaTid(), owner, c.cause().chain().name(), c.cause().inside());
            BlameRow old = rows.get(key);
            rows.put(key, old == null
                    ? new BlameRow(c.lock(), c.waiter(), waiter, c.cause().owner(), owner, c.cause().chain(), c.cause().inside(),
                    c.nanos(), c.count())
                    : new BlameRow(old.lock(), old.waiterThread(), old.waiterFrames(), old.ownerThread(), old.ownerFrames(),
                    old.ownerChain(), old.ownerInside(), old.nanos() + c.nanos(), old.count() + c.count()));
        }
        List<BlameRow> out = new ArrayList<>(rows.values());
        out.sort(ORDER);
        return out;
    }
}
