package dev.lockscope.analysis.model;

/** A recording that cannot be read: missing, truncated, or not JFR. The message is one line for the user. */
public final class RecordingException extends Exception {
    public RecordingException(String message, Throwable cause) {
        super(message, cause);
    }
}
