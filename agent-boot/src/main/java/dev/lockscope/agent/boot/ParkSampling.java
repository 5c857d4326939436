package dev.lockscope.agent.boot;

import dev.lockscope.core.OptionValues;

/**
 * Which short parks are recorded, and what each recorded one stands for: parks shorter than
 * {@code sampleBelow} are recorded with probability (length)/sampleBelow and stand for length/p of waiting
 * (Horvitz-Thompson), idle parks below 10 ms likewise. One draw per park, by its unparker where it can (so the
 * releaser walks its stack exactly for the parks that will be recorded), else by the parked thread itself,
 * from each thread's own random sequence: nothing shared is written.
 */
public final class ParkSampling {
    /**
     * Parks shorter than this are sampled: recorded with probability (length)/this, each then standing for
     * length/probability of waiting ({@link ParkEvent#standsForNanos}); 0: every park recorded for itself.
     * At most {@link OptionValues#MAX_SAMPLE_BELOW_NANOS}, so an elapsed time below it fits the 32 bits of a
     * {@link PerThread#sampleDecision}.
     */
    private static volatile long sampleBelowNanos;
    /**
     * Idle parks are sampled below this at least, while sampling is on: the CPU sampling period's order, the
     * resolution at which the wall-clock profile, their only reader, shows time.
     */
    private static final long IDLE_SAMPLE_BELOW_NANOS = 10_000_000L;

    private ParkSampling() {
    }

    /** Parks shorter than this are sampled by length ({@link #sampleBelowNanos}); 0 records every one. */
    public static void setSampleBelowNanos(long nanos) {
        sampleBelowNanos = Math.max(0, Math.min(nanos, OptionValues.MAX_SAMPLE_BELOW_NANOS));
    }

    /** {@link #sampleBelowNanos}: 0 while sampling is off. */
    static long sampleBelowNanos() {
        return sampleBelowNanos;
    }

    /** A sampling decision as {@link PerThread#sampleDecision} holds it. */
    static long sampleDecision(long handoff, boolean recorded, long parkedNanos) {
        return ((handoff & 0x7FFF_FFFFL) << 32) | (recorded ? Math.min(parkedNanos, 0xFFFF_FFFEL) + 1 : 0);
    }

    /**
     * Whether a park (not an idle one) of {@code parkedNanos} is recorded: -1 not, 0 for itself (at least
     * {@link #sampleBelowNanos} long, or sampling off), else sampled and standing for that much waiting.
     * A shorter park is recorded with probability p = (length)/sampleBelow and stands for length/p
     * (Horvitz-Thompson: the sum over recorded parks is unbiased). Who draws: the unparker that woke it,
     * when it found the target parked shorter than sampleBelow and this thread sees its decision; then p
     * is the time parked when it drew, and the decision holds even if the wake-up took this park past
     * sampleBelow, so that every recorded park it woke has its stack (it walked it exactly then).
     * Otherwise (a timeout, an interrupt, several unparks, an unparker inside a hook) this thread decides,
     * by its own length. Each park is decided by one draw.
     */
    static long standsFor(PerThread pt, long handoffAtPark, long handoffAtWake, long parkedNanos) {
        long below = sampleBelowNanos;
        if (below == 0) {
            return 0;
        }
        if (handoffAtWake == handoffAtPark + 1) {
            long decision = pt.sampleDecision;
            if ((decision >>> 32) == (handoffAtWake & 0x7FFF_FFFFL)) {
                long drawnAt = (decision & 0xFFFF_FFFFL) - 1; // the time parked when the unparker drew
                // length / p with p = drawnAt / below; at least 1, since 0 means "for itself"
                return drawnAt < 0 ? -1 : Math.max(1, (long) ((double) parkedNanos * below / Math.max(1, drawnAt)));
            }
        }
        return drawnByLength(pt, below, parkedNanos);
    }

    /**
     * This thread's own draw for a park of {@code parkedNanos}, sampled below {@code below}: 0 (for itself) when
     * at least that long, else {@code below} with probability (length)/below, and -1 (not recorded) otherwise.
     */
    private static long drawnByLength(PerThread pt, long below, long parkedNanos) {
        if (parkedNanos >= below) {
            return 0;
        }
        return pt.nextBelow(below) < parkedNanos ? below : -1;
    }

    /**
     * Whether an idle park (a worker waiting for work, {@link IdleParkEvent}) of {@code parkedNanos} is recorded,
     * as {@link #standsFor} answers: with sampling on, one shorter than {@link #IDLE_SAMPLE_BELOW_NANOS} (or than
     * sampleBelow, if longer) is recorded with probability (length)/that and stands for that much. Idle parks
     * have no owner to blame and no unpark event,
     * so this thread draws for itself; they only give the wall-clock profile its idle time, and on a server they
     * are most of all parks (Jetty under load: 13,000 a second, median 262 us, which filled a 12 MB JFR chunk
     * every 30 s; below 10 ms, 19% of them are recorded).
     */
    static long idleStandsFor(PerThread pt, long parkedNanos) {
        long below = sampleBelowNanos;
        // the longer of sampleBelow and IDLE_SAMPLE_BELOW_NANOS; none while sampling is off
        return below == 0 ? 0 : drawnByLength(pt, Math.max(below, IDLE_SAMPLE_BELOW_NANOS), parkedNanos);
    }
}
