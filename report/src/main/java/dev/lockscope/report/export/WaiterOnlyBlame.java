package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code blame} array of the owner-blame contract (issue 4) with the waiter side only: one entry
 * per lock × waiter thread × waiter chain, every owner {@code unknown}. It stands in until the
 * owner-blame analysis is merged, so the waiter flame graph, collapsed stacks and pprof work now;
 * it never guesses an owner.
 */
public final class WaiterOnlyBlame implements ReportSection {
    public static final String MEMBER = "blame";

    @Override
    public String member() {
        return MEMBER;
    }

    @Override
    public JsonNode build(LockRecording recording, LockContention contention) {
        Map<List<Object>, long[]> waits = new LinkedHashMap<>();
        for (ParkWait p : recording.parks()) {
            add(waits, "park", p.blockerClass(), Integer.toHexString(p.blockerHash()), p.thread(), p.frames(),
                    p.durationNanos(recording.endNanos()));
        }
        for (MonitorEnter e : recording.monitorEnters()) {
            add(waits, "monitor", e.monitorClass(), Long.toHexString(e.address()), e.thread(), e.frames(),
                    e.endNanos() - e.beginNanos());
        }
        ArrayNode blame = JsonNodeFactory.instance.arrayNode();
        waits.forEach((key, total) -> {
            @SuppressWarnings("unchecked")
            List<String> frames = (List<String>) key.get(4);
            blame.add(entry((String) key.get(0), (String) key.get(1), (String) key.get(2), (String) key.get(3), frames,
                    total[0], total[1]));
        });
        return blame;
    }

    private static void add(Map<List<Object>, long[]> waits, String kind, String lockClass, String lockId,
                            ThreadRef waiter, List<String> frames, long nanos) {
        long[] total = waits.computeIfAbsent(List.of(kind, lockClass, lockId, waiter.name(), frames), k -> new long[2]);
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
