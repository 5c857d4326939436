package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;

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

    @Override
    public JsonNode build(LockRecording recording, LockContention contention) {
        Map<Waiter, long[]> waits = new LinkedHashMap<>(); // {nanos, count}
        for (ParkWait p : recording.parks()) {
            add(waits, new Waiter("park", p.blockerClass(), Integer.toHexString(p.blockerHash()), p.thread().name(),
                    p.frames()), p.durationNanos(recording.endNanos()));
        }
        for (MonitorEnter e : recording.monitorEnters()) {
            add(waits, new Waiter("monitor", e.monitorClass(), Long.toHexString(e.address()), e.thread().name(),
                    e.frames()), e.endNanos() - e.beginNanos());
        }
        ArrayNode blame = JsonNodeFactory.instance.arrayNode();
        waits.forEach((w, total) -> blame.add(entry(w.kind, w.lockClass, w.lockId, w.thread, w.frames, total[0], total[1])));
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
