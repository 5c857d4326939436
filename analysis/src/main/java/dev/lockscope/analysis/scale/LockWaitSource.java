package dev.lockscope.analysis.scale;

import dev.lockscope.analysis.model.LockRecording;

import java.util.List;

/**
 * Per-lock waits and owners of one recording, as the sweep needs them. {@link OwnerEstimate} is the
 * built-in estimate; the owner-blame analysis ({@code dev.lockscope.analysis.blame}) can be plugged
 * in here instead, with no change to the sweep.
 */
public interface LockWaitSource {
    /** The contended locks of one run, largest wait thread-time first. */
    List<ContendedLock> contendedLocks(LockRecording recording);
}
