package dev.lockscope.analysis.model;

/**
 * {@code lockscope.StackBudget}: the agent's budget of events with a stack a second and the park and unpark events
 * it refused since profiling started, written with every batch of summaries (the latest holds the run's counts).
 *
 * @param timeNanos        when it was written
 * @param perSecond        the budget, events with a stack a second; 0: none
 * @param parksDropped     park events not written (the exact table counts them; blame and profiles do not)
 * @param parkNanosDropped the waiting those parks stood for
 * @param unparksDropped   unpark events (a releaser's stack) not written
 * @param batch            the agent's write of summaries it belongs to
 */
public record StackBudget(long timeNanos, long perSecond, long parksDropped, long parkNanosDropped, long unparksDropped,
                          long batch) {
    /** No budget and nothing refused: a recording without the event (an older agent, JFR alone). */
    public static final StackBudget NONE = new StackBudget(0, 0, 0, 0, 0, 0);

    /** Whether the budget refused any event. */
    public boolean dropped() {
        return parksDropped > 0 || unparksDropped > 0;
    }

    /** Of recordings merged: the refused events summed, the highest budget. */
    public StackBudget plus(StackBudget other) {
        return new StackBudget(Math.max(timeNanos, other.timeNanos), Math.max(perSecond, other.perSecond),
                parksDropped + other.parksDropped, parkNanosDropped + other.parkNanosDropped,
                unparksDropped + other.unparksDropped, 0);
    }
}
