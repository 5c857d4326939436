package dev.lockscope.analysis.blame;

import dev.lockscope.core.CallStack;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * One line of the JSON {@code blame} array: all contention of one waiter chain on one lock caused by
 * one owner chain and what the owner did inside the hold. Frames are as shown by the {@link ChainView} the
 * rows were made with; {@code ownerInside} as recorded ({@link Cause#inside}).
 */
public record BlameRow(LockId lock, ThreadRef waiterThread, List<String> waiterFrames, ThreadRef ownerThread,
                       List<String> ownerFrames, OwnerChain ownerChain, List<String> ownerInside, long nanos, long count) {
    public BlameRow {
        waiterFrames = CallStack.copyOf(waiterFrames);
        ownerFrames = CallStack.copyOf(ownerFrames);
        ownerInside = CallStack.copyOf(ownerInside);
    }
}
