package dev.lockscope.report.blame;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.blame.BlameNode;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.blame.HandoffHold;
import dev.lockscope.analysis.blame.LockChainShare;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.blame.OwnerChain;
import dev.lockscope.analysis.blame.WaitRow;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * Owner blame as one standalone JSON object: {@code blame} (one entry per lock × waiter chain × owner
 * chain), {@code tree}, {@code ownerChainShares} and {@code waits}. Field order is fixed, so the same
 * summary always gives the same bytes.
 */
public final class BlameJsonReport {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BlameJsonReport() {
    }

    public static String render(BlameSummary s) {
        try {
            return MAPPER.writeValueAsString(toJson(s)) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    /** The object itself, for embedding in a larger report. */
    public static ObjectNode toJson(BlameSummary s) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("totalNanos", s.totalNanos());
        root.put("contentionCount", s.contentionCount());
        ArrayNode groupBy = root.putArray("groupBy");
        s.groupBy().forEach(a -> groupBy.add(a.label()));
        root.put("raw", s.raw());
        ArrayNode blame = root.putArray("blame");
        s.rows().forEach(r -> blame.add(row(r)));
        root.set("tree", node(s.tree()));
        ArrayNode shares = root.putArray("ownerChainShares");
        s.chainShares().forEach(l -> shares.add(chainShare(l, s.handoffHold(l.lock()))));
        ArrayNode waits = root.putArray("waits");
        s.waits().forEach(w -> waits.add(wait(w)));
        return root;
    }

    private static ObjectNode row(BlameRow r) {
        ObjectNode o = lock(r.lock());
        thread(o, "waiterThread", "waiterTid", r.waiterThread());
        frames(o.putArray("waiterFrames"), r.waiterFrames());
        thread(o, "ownerThread", "ownerTid", r.ownerThread());
        frames(o.putArray("ownerFrames"), r.ownerFrames());
        o.put("ownerChain", r.ownerChain().label());
        frames(o.putArray("ownerInside"), r.ownerInside());
        o.put("nanos", r.nanos());
        o.put("count", r.count());
        return o;
    }

    private static ObjectNode node(BlameNode n) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("aspect", n.aspect() == null ? "all" : n.aspect().label());
        o.put("key", n.key());
        o.put("nanos", n.totalNanos());
        o.put("share", n.share());
        o.put("count", n.count());
        ArrayNode children = o.putArray("children");
        n.children().forEach(c -> children.add(node(c)));
        return o;
    }

    /** @param hold the holds measured between the lock's hand-offs, or null */
    private static ObjectNode chainShare(LockChainShare l, HandoffHold hold) {
        ObjectNode o = lock(l.lock());
        o.put("nanos", l.totalNanos());
        ObjectNode byClass = o.putObject("shares");
        for (OwnerChain c : OwnerChain.values()) {
            byClass.put(c.label(), l.share(c));
        }
        if (hold != null) {
            o.put("avgHoldFromHandoffsNanos", Math.round(hold.avgNanos()));
            o.put("handoffHolds", hold.holds());
        }
        return o;
    }

    private static ObjectNode wait(WaitRow w) {
        ObjectNode o = lock(w.lock());
        thread(o, "waiterThread", "waiterTid", w.waiterThread());
        o.put("waiterMethod", w.waiterMethod());
        thread(o, "notifierThread", "notifierTid", w.notifier());
        frames(o.putArray("notifierTookIn"), w.notifierTookIn());
        o.put("nanos", w.nanos());
        o.put("count", w.count());
        o.put("timedOut", w.timedOut());
        return o;
    }

    private static ObjectNode lock(LockId id) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("kind", id.kind().label());
        o.put("lockClass", id.lockClass());
        o.put("lockId", id.id());
        return o;
    }

    /** Unknown threads are written as null with tid 0. */
    private static void thread(ObjectNode o, String nameField, String tidField, ThreadRef t) {
        if (t == null || t.equals(ThreadRef.UNKNOWN)) {
            o.putNull(nameField);
            o.put(tidField, 0);
        } else {
            o.put(nameField, t.name());
            o.put(tidField, t.javaTid());
        }
    }

    private static void frames(ArrayNode into, List<String> frames) {
        frames.forEach(into::add);
    }
}
