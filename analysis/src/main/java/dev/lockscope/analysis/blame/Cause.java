package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * Who is blamed for a span of waiting: the thread that held the lock and the call chain in which it
 * held it.
 *
 * @param owner  the owning thread, {@link ThreadRef#UNKNOWN} when nobody can be blamed
 * @param frames the owner's call chain, innermost first; empty when {@code chain} is UNKNOWN
 * @param chain  how the chain was obtained
 */
public record Cause(ThreadRef owner, List<String> frames, OwnerChain chain) {
    /** Nothing is known: no owner was recorded. */
    public static final Cause UNKNOWN = new Cause(ThreadRef.UNKNOWN, List.of(), OwnerChain.UNKNOWN);
    /** The lock was released to the waiter, which had not run yet (see {@link OwnerChain#HANDOFF_GAP}). */
    public static final Cause HANDOFF_GAP = new Cause(ThreadRef.UNKNOWN, List.of(), OwnerChain.HANDOFF_GAP);

    public Cause {
        frames = List.copyOf(frames);
    }

    /** The owner thread is known but not its call chain. */
    public static Cause threadOnly(ThreadRef owner) {
        return owner == null || owner.equals(ThreadRef.UNKNOWN) ? UNKNOWN : new Cause(owner, List.of(), OwnerChain.NOT_RECORDED);
    }

    public boolean hasOwner() {
        return !owner.equals(ThreadRef.UNKNOWN);
    }
}
