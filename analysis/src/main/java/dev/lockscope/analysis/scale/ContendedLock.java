package dev.lockscope.analysis.scale;

import dev.lockscope.core.LockKind;

import java.util.List;

/**
 * One contended lock in one run: how long threads waited on it, where they waited, and who held it.
 *
 * @param site            the frame that takes the lock: the first waiter frame outside Java's lock
 *                        machinery (for a monitor, the synchronized method or block)
 * @param waiterFrames    the waiters' most common call chain from the site on, innermost first
 * @param ownerFrames     the holders' most common call chain, innermost first, lock machinery removed
 * @param ownerSource     how the owner was found: {@code unpark} (the releasing thread's stack),
 *                        {@code previousOwner} (the previous owner's own contended entry),
 *                        {@code waiter-site} (no evidence: the waiters' own code, which also holds it)
 * @param threadTimeNanos total wait thread-time: Σ park (or blocked-entry) durations
 * @param waiterThreads   names of the threads that waited, sorted, at most {@link #THREADS_KEPT}
 */
public record ContendedLock(LockKind kind, String className, String site, List<String> waiterFrames,
                            List<String> ownerFrames, String ownerSource, long waits, long threadTimeNanos,
                            List<String> waiterThreads) {
    public static final int THREADS_KEPT = 16;

    public ContendedLock {
        waiterFrames = List.copyOf(waiterFrames);
        ownerFrames = List.copyOf(ownerFrames);
        waiterThreads = List.copyOf(waiterThreads);
    }

    /**
     * Same lock in another run, where addresses and hashes change: same kind, class and calling
     * method (the waiters' innermost application or middleware method, without its line; the site's
     * method when there is none). Methods rather than lines, because the waiters of one JDK lock
     * queue at whichever of its synchronized methods they call first ({@code Hashtable.size} or
     * {@code get}), and that can change from run to run.
     */
    public String key() {
        String caller = LayerClassifier.defaults().firstUserFrame(waiterFrames).orElse(site);
        return kind.label() + "|" + className + "|" + withoutLine(caller);
    }

    private static String withoutLine(String frame) {
        int colon = frame.lastIndexOf(':');
        return colon > 0 ? frame.substring(0, colon) : frame;
    }
}
