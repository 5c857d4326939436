package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TEST FIXTURE: a {@code blame} array of the owner-blame contract with the waiter side only (one entry
 * per lock × waiter thread × waiter chain, every owner {@code unknown}, chains unabridged), so the
 * renderers' tests control the blame entries they read; the product uses {@link OwnerBlameSection}.
 */
public final class WaiterOnlyBlame implements ReportSection {
    public static final String MEMBER = "blame";

    @Override
    public String member() {
        return MEMBER;
    }

    /** What one entry aggregates over. */
    private record Waiter(String kind, String lockClass, String lockId, String thread, List<String> frames) {
    }

    private final Map<Waiter, long[]> parks = new LinkedHashMap<>(); // {nanos, count}
    private final Map<Waiter, long[]> monitors = new LinkedHashMap<>();
    private final Map<List<Long>, ParkWait> open = new LinkedHashMap<>();

    @Override
    public RecordingVisitor visitor() {
        return new RecordingVisitor() {
            @Override
            public void parkBegin(ParkWait p) {
                open.put(List.of(p.thread().javaTid(), p.beginSeq()), p);
                parks.computeIfAbsent(waiter(p), k -> new long[2]); // entries in the order parks began
            }

            @Override
            public void parkEnd(ParkWait p) {
                open.remove(List.of(p.thread().javaTid(), p.beginSeq()));
                add(parks, waiter(p), p.endNanos() - p.beginNanos());
            }

            @Override
            public void monitorEnter(MonitorEnter e) {
                add(monitors, new Waiter("monitor", e.monitorClass(), Long.toHexString(e.address()), e.thread().name(),
                        e.frames()), e.endNanos() - e.beginNanos());
            }

            @Override
            public void finish(RecordingInfo info) {
                open.values().forEach(p -> add(parks, waiter(p), p.durationNanos(info.endNanos())));
            }
        };
    }

    private static Waiter waiter(ParkWait p) {
        return new Waiter("park", p.blockerClass(), Integer.toHexString(p.blockerHash()), p.thread().name(), p.frames());
    }

    @Override
    public JsonNode build(RecordingInfo recording, LockContention contention) {
        ArrayNode blame = JsonNodeFactory.instance.arrayNode();
        for (Map<Waiter, long[]> waits : List.of(parks, monitors)) {
            waits.forEach((w, total) -> blame.add(entry(w.kind, w.lockClass, w.lockId, w.thread, w.frames, total[0], total[1])));
        }
        return blame;
    }

    private static void add(Map<Waiter, long[]> waits, Waiter waiter, long nanos) {
        long[] total = waits.computeIfAbsent(waiter, k -> new long[2]);
        total[0] += nanos;
        total[1]++;
    }

    /** One entry of the contract; {@code ownerThread} null and {@code ownerFrames} empty when unknown. */
    public static ObjectNode entry(String kind, String lockClass, String lockId, String waiterThread,
                                   List<String> waiterFrames, long nanos, long count) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("kind", kind);
        o.put("lockClass", lockClass);
        o.put("lockId", lockId);
        o.put("waiterThread", waiterThread);
        ArrayNode wf = o.putArray("waiterFrames");
        waiterFrames.forEach(wf::add);
        o.putNull("ownerThread");
        o.putArray("ownerFrames");
        o.put("ownerChain", "unknown");
        o.put("nanos", nanos);
        o.put("count", count);
        return o;
    }
}
