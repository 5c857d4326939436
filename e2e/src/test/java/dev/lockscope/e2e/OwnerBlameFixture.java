package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;
import dev.lockscope.report.export.ReportSection;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TEST FIXTURE, not product code: a {@code blame} array in the owner-blame contract (issue 4) filled
 * in the simplest way, so the HTML report's owner sections can be tested before the real analysis
 * is merged. A park's owner is the thread of the {@code Unpark} that woke it (seq between the park's
 * begin and end), with that unpark's frames; a monitor's owner is JFR's previousOwner, chain unknown.
 * The real analysis attributes the whole wait, which this does not try to do.
 */
final class OwnerBlameFixture implements ReportSection {
    @Override
    public String member() {
        return "blame";
    }

    private final Map<List<Object>, long[]> totals = new LinkedHashMap<>();
    /** Open parks by thread id and begin seq, each with the first unpark of its thread since it began. */
    private final Map<List<Long>, Unpark[]> open = new LinkedHashMap<>();
    private final Map<List<Long>, ParkWait> openParks = new HashMap<>();

    @Override
    public RecordingVisitor visitor() {
        return new RecordingVisitor() {
            @Override
            public void parkBegin(ParkWait p) {
                open.put(List.of(p.thread().javaTid(), p.beginSeq()), new Unpark[1]);
                openParks.put(List.of(p.thread().javaTid(), p.beginSeq()), p);
            }

            @Override
            public void unpark(Unpark u) {
                open.forEach((k, waker) -> {
                    if (k.get(0) == u.targetTid() && k.get(1) < u.seq() && waker[0] == null) {
                        waker[0] = u;
                    }
                });
            }

            @Override
            public void parkEnd(ParkWait p) {
                List<Long> k = List.of(p.thread().javaTid(), p.beginSeq());
                openParks.remove(k);
                park(p, open.remove(k)[0], p.endNanos() - p.beginNanos());
            }

            @Override
            public void monitorEnter(MonitorEnter e) {
                ThreadRef owner = e.previousOwner();
                add(totals, List.of("monitor", e.monitorClass(), Long.toHexString(e.address()), e.thread().name(), e.frames(),
                        owner == null ? "" : owner.name(), List.of(), "unknown"), e.endNanos() - e.beginNanos());
            }

            @Override
            public void finish(RecordingInfo info) {
                openParks.values().forEach(p -> park(p, null, p.durationNanos(info.endNanos())));
            }
        };
    }

    private void park(ParkWait p, Unpark u, long nanos) {
        add(totals, List.of("park", p.blockerClass(), Integer.toHexString(p.blockerHash()), p.thread().name(),
                p.frames(), u == null ? "" : u.thread().name(), u == null ? List.of() : u.frames(),
                u == null ? "unknown" : "exact"), nanos);
    }

    @Override
    public JsonNode build(RecordingInfo recording, LockContention contention) {
        ArrayNode blame = JsonNodeFactory.instance.arrayNode();
        totals.forEach((k, v) -> {
            ObjectNode o = blame.addObject();
            o.put("kind", (String) k.get(0));
            o.put("lockClass", (String) k.get(1));
            o.put("lockId", (String) k.get(2));
            o.put("waiterThread", (String) k.get(3));
            ArrayNode wf = o.putArray("waiterFrames");
            ((List<?>) k.get(4)).forEach(f -> wf.add((String) f));
            if (((String) k.get(5)).isEmpty()) {
                o.putNull("ownerThread");
            } else {
                o.put("ownerThread", (String) k.get(5));
            }
            ArrayNode of = o.putArray("ownerFrames");
            ((List<?>) k.get(6)).forEach(f -> of.add((String) f));
            o.put("ownerChain", (String) k.get(7));
            o.put("nanos", v[0]);
            o.put("count", v[1]);
        });
        return blame;
    }

    private static void add(Map<List<Object>, long[]> totals, List<Object> key, long nanos) {
        long[] t = totals.computeIfAbsent(key, k -> new long[2]);
        t[0] += nanos;
        t[1]++;
    }
}
