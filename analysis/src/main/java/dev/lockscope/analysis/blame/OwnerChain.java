package dev.lockscope.analysis.blame;

/**
 * How the owner's call chain of a contention record was obtained, i.e. how far it can be trusted.
 */
public enum OwnerChain {
    /** Recorded by the owner itself when it released the lock (park-based locks: the unparker's stack). */
    EXACT("exact"),
    /**
     * Monitors only: the chain of the owner's most recent contended acquisition of the same monitor
     * (not used once the owner is seen handing the monitor over after it). Right when the owner
     * released the monitor in the code that acquired it; wrong when the owner re-entered it without
     * contention (no JFR event) in different code before anyone else got it.
     */
    ACQUISITION_SITE("acquisition-site"),
    /**
     * Monitors only, when no acquisition site exists: the most frequent stack of the owner in the CPU
     * samples taken while the waiter waited. A sleeping or blocked owner is never sampled.
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
