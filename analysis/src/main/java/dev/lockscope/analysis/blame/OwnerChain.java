package dev.lockscope.analysis.blame;

/**
 * How the owner's call chain of a contention record was obtained, i.e. how far it can be trusted.
 */
public enum OwnerChain {
    /** Recorded by the owner itself when it released the lock (park-based locks: the unparker's stack). */
    EXACT("exact"),
    /**
     * Monitors only, when nothing of the owner was recorded while the waiter waited: the chain of the
     * owner's most recent contended acquisition of the same monitor (not used once the owner is seen
     * handing the monitor over after it). Right when the owner released the monitor in the code that
     * acquired it; wrong when the owner re-entered it without contention (no JFR event) in different
     * code before anyone else got it.
     */
    ACQUISITION_SITE("acquisition-site"),
    /**
     * Monitors: what the owner itself was recorded doing while the waiter waited (its sleeps, parks,
     * monitor waits and CPU samples), weighted over the wait, each stack cut to the frame that holds
     * the monitor. Sees tenures JFR records no event for (a thread taking the monitor back without contention).
     */
    SAMPLED("sampled"),
    /** No chain: the owner is unknown, or known by thread only. */
    UNKNOWN("unknown");

    private final String label;

    OwnerChain(String label) {
        this.label = label;
    }

    /** The name used in JSON and text output. */
    public String label() {
        return label;
    }
}
