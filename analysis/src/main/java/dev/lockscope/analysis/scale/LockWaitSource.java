package dev.lockscope.analysis.scale;

import dev.lockscope.analysis.model.RecordingVisitor;

import java.util.List;

/**
 * Per-lock waits and owners of one recording, as the sweep needs them. {@link OwnerEstimate} is the
 * built-in estimate; the owner-blame analysis ({@code dev.lockscope.analysis.blame}) can be plugged
 * in here instead, with no change to the sweep.
 */
public interface LockWaitSource {
    /** A fresh analysis of one run's recording, fed by {@link dev.lockscope.analysis.model.RecordingReader}. */
    Analysis start();

    /** One recording's analysis. */
    interface Analysis extends RecordingVisitor {
        /** The contended locks of the run, largest wait thread-time first; once the recording has been read. */
        List<ContendedLock> contendedLocks();
    }
}
