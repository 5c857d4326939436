package dev.lockscope.analysis.model;

/**
 * A virtual thread mounted on a carrier ({@code lockscope.CarrierMount}, agent option {@code carriers}):
 * the carrier ran it from {@code mountNanos} to {@code unmountNanos}.
 *
 * @param carrierJavaTid   the carrier's Java thread id (its OS thread id is in {@link RecordingInfo#threads()})
 * @param virtualThreadId  the virtual thread's Java thread id
 * @param mountNanos       {@code System.nanoTime()}: the time line of scheduling data ({@code .sched})
 * @param unmountNanos     likewise
 * @param epochOffsetNanos added to those, the recording's (epoch) time line
 * @param lostBefore       intervals of this carrier the agent dropped (buffer full) before this one
 */
public record CarrierMount(long carrierJavaTid, long virtualThreadId, long mountNanos, long unmountNanos,
                           long epochOffsetNanos, long lostBefore) {
    public long mountEpochNanos() {
        return mountNanos + epochOffsetNanos;
    }

    public long unmountEpochNanos() {
        return unmountNanos + epochOffsetNanos;
    }
}
