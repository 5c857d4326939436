package dev.lockscope.analysis.model;

import java.util.List;

/**
 * {@code lockscope.DeepRelease}: in deep mode, {@code thread} released the monitor of the object
 * {@code lockClass@lockHash} at {@code timeNanos} while another thread waited to enter it.
 *
 * @param heldNanos how long it had held it, when a thread was already waiting at the acquisition; -1
 *                  when the hold began before anyone waited for it
 * @param frames    the holder's stack at the release, innermost first (lockscope's probes left out)
 */
public record DeepRelease(ThreadRef thread, long timeNanos, String lockClass, int lockHash, long heldNanos,
                          List<String> frames) {
    /** When the hold began, or {@link Long#MIN_VALUE} when not known (it began before anyone waited). */
    public long heldSinceNanos() {
        return heldNanos < 0 ? Long.MIN_VALUE : timeNanos - heldNanos;
    }
}
