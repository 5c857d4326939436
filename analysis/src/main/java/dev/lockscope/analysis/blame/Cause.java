package dev.lockscope.analysis.blame;

import dev.lockscope.core.CallStack;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * Who is blamed for a span of waiting: the thread that held the lock and the call chain in which it
 * held it.
 *
 * @param owner  the owning thread, {@link ThreadRef#UNKNOWN} when nobody can be blamed
 * @param frames the owner's call chain, innermost first; empty when {@code chain} is UNKNOWN
 * @param chain  how the chain was obtained
 * @param inside what the owner was doing while it held the lock, innermost first: the frames of its recorded
 *               stack inside the frame that holds the lock (a loader, a write, a sleep), when a stack of the
 *               owner was recorded in the hold and cut there ({@link OwnerChain#SAMPLED}); else empty
 */
public record Cause(ThreadRef owner, List<String> frames, OwnerChain chain, List<String> inside) {
    /** Nothing is known: no owner was recorded. */
    public static final Cause UNKNOWN = new Cause(ThreadRef.UNKNOWN, List.of(), OwnerChain.UNKNOWN, List.of());
    /** The lock was released to the waiter, which had not run yet (see {@link OwnerChain#HANDOFF_GAP}). */
    public static final Cause HANDOFF_GAP = new Cause(ThreadRef.UNKNOWN, List.of(), OwnerChain.HANDOFF_GAP, List.of());

    public Cause {
        frames = CallStack.copyOf(frames);
        inside = CallStack.copyOf(inside);
    }

    /** A cause with no stack of the owner inside the hold. */
    public Cause(ThreadRef owner, List<String> frames, OwnerChain chain) {
        this(owner, frames, chain, List.of());
    }

    /** The owner thread is known but not its call chain. */
    public static Cause threadOnly(ThreadRef owner) {
        return owner == null || owner.equals(ThreadRef.UNKNOWN) ? UNKNOWN : new Cause(owner, List.of(), OwnerChain.NOT_RECORDED);
    }

    public boolean hasOwner() {
        return !owner.equals(ThreadRef.UNKNOWN);
    }
}
