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

    /**
     * Mixed, unlike a record's default (31·h + ...): thread ids and OS ids rise together, and virtual
     * threads share the name "" and OS id 0, so the default hashes of keys that hold two threads
     * (waiter and owner in owner blame) fell on lines of equal values, and the hash maps keyed by them
     * degraded to lists: a report of 1,000 threads took minutes.
     */
    @Override
    public int hashCode() {
        long h = javaTid * 0x9E3779B97F4A7C15L + osTid * 0xC2B2AE3D27D4EB4FL + name.hashCode();
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h ^ h >>> 32);
    }
}
