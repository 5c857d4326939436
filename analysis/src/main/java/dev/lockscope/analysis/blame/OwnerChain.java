package dev.lockscope.analysis.blame;

/**
 * How the owner's call chain of a contention record was obtained, i.e. how far it can be trusted.
 */
public enum OwnerChain {
    /** Recorded by the owner itself when it released the lock (park-based locks: the unparker's stack). */
    EXACT("exact"),
    /**
     * Monitors in deep mode: the owner's stack when it released the monitor the waiter waited for, and
     * the hold's exact times ({@code lockscope.DeepRelease}; see {@link DeepMonitorHolds}).
     */
    DEEP_EXACT("deep-exact"),
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
    /**
     * Monitors: what the owner was recorded doing inside the span when none of its stacks there is in a method
     * seen entering the monitor. The owner held it (JFR named it), but a stack may be from between its tenures:
     * log4j2's owner formatting its next message before it takes the appender's monitor again. Estimated, kept
     * apart from {@link #SAMPLED} so that "held in" is said only of stacks inside a hold.
     */
    SAMPLED_OUTSIDE_HOLD("sampled-outside-hold"),
    /**
     * The part of a park after the lock was released to this waiter (the unpark that woke it) until
     * it ran: the lock was free, the waiter runnable, waiting for a CPU. No owner.
     */
    HANDOFF_GAP("hand-off-gap", "(hand-off gap)"),
    /**
     * A blocker without an owner ({@code Semaphore}, latches, queues): the thread named is the one whose
     * release or signal woke the waiter, with its stack at that unpark; none when nothing woke it.
     */
    NO_OWNER("no-owner", "(no owner)"),
    /** The owner thread is known, but no call chain of it was recorded (no sample, wait or acquisition). */
    NOT_RECORDED("not-recorded", "(chain not recorded)"),
    /** Nothing known: no owner was recorded (JFR named no previous owner, a park nothing woke). */
    UNKNOWN("unknown", ChainView.UNKNOWN);

    private final String label;
    private final String missingKey;

    OwnerChain(String label) {
        this(label, null);
    }

    OwnerChain(String label, String missingKey) {
        this.label = label;
        this.missingKey = missingKey;
    }

    /** The group key of a cause of this class that has no chain (and, for some, no owner): why it has none. */
    public String missingKey() {
        return missingKey == null ? ChainView.UNKNOWN : missingKey;
    }

    /** The name used in JSON and text output. */
    public String label() {
        return label;
    }
}
