package dev.lockscope.analysis.jfr;

/** The bytes of a chunk do not follow the JFR format: the chunk is damaged and is skipped. */
public final class JfrFormatException extends RuntimeException {
    public JfrFormatException(String message) {
        super(message, null, false, false);
    }
}
