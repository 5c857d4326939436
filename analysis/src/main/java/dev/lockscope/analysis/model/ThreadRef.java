package dev.lockscope.analysis.model;

/**
 * A Java thread as the recording names it.
 *
 * @param javaTid {@code Thread.getId()}; 0 when not a Java thread
 * @param osTid   the OS thread id (Linux tid), 0 when unknown
 * @param name    the Java thread name, or the OS name for JVM-internal threads
 * @param virtual JFR's {@code virtual} flag of the thread (recordings of JDK 21 and later)
 */
public record ThreadRef(long javaTid, long osTid, String name, boolean virtual) {
    public static final ThreadRef UNKNOWN = new ThreadRef(0, 0, "?");

    public ThreadRef(long javaTid, long osTid, String name) {
        this(javaTid, osTid, name, false);
    }
}
