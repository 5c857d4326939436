package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;

/**
 * One line of the JSON {@code blame} array: all contention of one waiter chain on one lock caused by
 * one owner chain. Frames are as shown by the {@link ChainView} the rows were made with.
 */
public record BlameRow(LockId lock, ThreadRef waiterThread, List<String> waiterFrames, ThreadRef ownerThread,
                       List<String> ownerFrames, OwnerChain ownerChain, long nanos, long count) {
    public BlameRow {
        waiterFrames = List.copyOf(waiterFrames);
        ownerFrames = List.copyOf(ownerFrames);
    }
}
