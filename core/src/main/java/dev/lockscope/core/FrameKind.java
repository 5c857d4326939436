package dev.lockscope.core;

/** Whose code a stack frame is in, as {@link FrameClassifier} decides it once per frame. */
public enum FrameKind {
    /** The Java class library ({@code java.}, {@code jdk.}, {@code sun.}, ...). */
    JDK,
    /** The recorder's own code: JFR, lockscope's agent and the metrics endpoint's HTTP server. */
    RUNTIME,
    /**
     * A method that takes a lock it is given, or owns, for its caller (Jetty's {@code AutoLock}): a lock
     * row is named by the first application frame past it.
     */
    LOCK_WRAPPER,
    /** The application and its libraries. */
    APPLICATION;

    /** Whether a frame of this kind is the code that asked for a lock rather than lock machinery. */
    public boolean isApplication() {
        return this == APPLICATION;
    }
}
