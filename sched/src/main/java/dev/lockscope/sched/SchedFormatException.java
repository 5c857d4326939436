package dev.lockscope.sched;

/** A .sched file that cannot be read; the message is one line naming the file (and line). */
public final class SchedFormatException extends RuntimeException {
    public SchedFormatException(String message) {
        super(message);
    }
}
