package dev.lockscope.report.export;

import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayList;
import java.util.List;

/**
 * The blame rows as the stack exports (collapsed, pprof) see them: the chosen side's frames,
 * innermost first, under a leaf naming the lock, so the hottest locks read at the top of a flame
 * graph and in {@code pprof -top}. The HTML page's flame graphs are built the same way (report.js,
 * {@code flameTree}).
 */
public final class BlameStacks {
    /** Root frame of an owner stack that the blame analysis could not attribute. */
    public static final String UNKNOWN_OWNER = "[owner unknown]";
    public static final String NO_STACK = "[no stack]";

    /**
     * @param frames innermost first, as recorded; empty when the side has no call chain
     * @param lock   the lock's {@code class@id}, the leaf of the stack; null in a profile's stacks
     * @param thread the side's thread name, null when unknown
     */
    public record Stack(List<String> frames, String lock, String thread, long nanos, long count) {
        /** The root frame when there are no frames: who is missing. */
        public String placeholder() {
            return thread == null ? UNKNOWN_OWNER : NO_STACK;
        }
    }

    private BlameStacks() {
    }

    public static List<Stack> of(BlameSummary blame, Side side) {
        List<Stack> stacks = new ArrayList<>(blame.rows().size());
        for (BlameRow r : blame.rows()) {
            ThreadRef thread = side == Side.waiter ? r.waiterThread() : r.ownerThread();
            boolean known = thread != null && !thread.equals(ThreadRef.UNKNOWN);
            stacks.add(new Stack(side == Side.waiter ? r.waiterFrames() : r.ownerFrames(), r.lock().label(),
                    known ? thread.name() : null, r.nanos(), r.count()));
        }
        return stacks;
    }
}
