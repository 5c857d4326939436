package dev.lockscope.analysis;

/**
 * The options of the J9 park-contention report §3.3 that apply to a finished recording.
 *
 * <p>The third option, free-on-print (§3.3.3), is not here: it drops the live records of blockers
 * that were garbage-collected after each printed report, which only matters to the in-process agent
 * ({@code -javaagent:...=freeOnPrint}). A recording is analysed once and holds no live records.
 *
 * @param collectionThreshold §3.3.1: parks on a lock before its data is collected; 0 collects from the
 *                            first park. Parks before that are counted in times parked, nothing else.
 * @param printThreshold      §3.3.2: locks parked on fewer times are left out of the report; 0 keeps all
 * @param byInstance          rank lock objects one by one instead of lock sites ({@code --instances})
 */
public record ContentionOptions(long collectionThreshold, long printThreshold, boolean byInstance) {
    public static final ContentionOptions DEFAULTS = new ContentionOptions(0, 0);

    /** Lock sites ranked (the default). */
    public ContentionOptions(long collectionThreshold, long printThreshold) {
        this(collectionThreshold, printThreshold, false);
    }

    public ContentionOptions {
        if (collectionThreshold < 0) {
            throw new IllegalArgumentException("collection threshold must be >= 0, got " + collectionThreshold);
        }
        if (printThreshold < 0) {
            throw new IllegalArgumentException("print threshold must be >= 0, got " + printThreshold);
        }
    }
}
