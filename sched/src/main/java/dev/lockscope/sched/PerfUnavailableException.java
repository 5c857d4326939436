package dev.lockscope.sched;

/** perf cannot record context switches of the target; the message says why, in one line. */
public final class PerfUnavailableException extends RuntimeException {
    public PerfUnavailableException(String message) {
        super(message);
    }
}
