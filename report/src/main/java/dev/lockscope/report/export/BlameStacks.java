package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The stacks of a document's {@code blame} array as the stack exports (collapsed, pprof) see them:
 * the chosen side's frames, innermost first, under a leaf frame naming the lock, so the hottest
 * locks read at the top of a flame graph and in {@code pprof -top}. The HTML page builds its flame
 * graphs the same way (report.js, {@code blameStack}).
 */
public final class BlameStacks {
    /** Root frame of an owner stack that the blame analysis could not attribute. */
    public static final String UNKNOWN_OWNER = "[owner unknown]";
    public static final String NO_STACK = "[no stack]";

    /** @param frames innermost first, the lock's pseudo-frame at index 0 */
    public record Stack(List<String> frames, String lock, String thread, long nanos, long count) {
    }

    private BlameStacks() {
    }

    /** @throws IllegalArgumentException when the document has no {@code blame} member */
    public static List<Stack> of(ObjectNode doc, Side side) {
        JsonNode blame = doc.get("blame");
        if (blame == null || !blame.isArray()) {
            throw new IllegalArgumentException("the report has no blame data to export");
        }
        List<Stack> stacks = new ArrayList<>(blame.size());
        for (JsonNode e : blame) {
            String lock = e.path("lockClass").asText("?") + "@" + e.path("lockId").asText("?");
            JsonNode chain = e.path(side == Side.waiter ? "waiterFrames" : "ownerFrames");
            JsonNode thread = e.path(side == Side.waiter ? "waiterThread" : "ownerThread");
            List<String> frames = new ArrayList<>(chain.size() + 1);
            frames.add(lock);
            chain.forEach(f -> frames.add(f.asText()));
            if (frames.size() == 1) {
                frames.add(side == Side.owner && thread.isNull() ? UNKNOWN_OWNER : NO_STACK);
            }
            stacks.add(new Stack(frames, lock, thread.isNull() ? null : thread.asText(), e.path("nanos").asLong(),
                    e.path("count").asLong(1)));
        }
        return stacks;
    }
}
