package dev.lockscope.core;

/**
 * The hold-time histogram of deep mode (JLM reports average and maximum hold time; Health Center
 * adds a distribution): one bucket per decade of nanoseconds, from "under 1 µs" to "1 s and more".
 * The agent counts into these buckets and the report labels them, so both agree on the bounds.
 */
public final class HoldHistogram {
    private HoldHistogram() {
    }

    /** Upper bounds (exclusive) of every bucket but the last, in nanoseconds. */
    private static final long[] BOUNDS = {1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L};
    private static final String[] LABELS = {"<1us", "<10us", "<100us", "<1ms", "<10ms", "<100ms", "<1s", ">=1s"};

    public static final int BUCKETS = LABELS.length;

    /** The bucket of one hold of {@code nanos}. */
    public static int bucket(long nanos) {
        for (int i = 0; i < BOUNDS.length; i++) {
            if (nanos < BOUNDS[i]) {
                return i;
            }
        }
        return BOUNDS.length;
    }

    public static String label(int bucket) {
        return LABELS[bucket];
    }

    /** The counts as written in an event: comma-separated, one per bucket. */
    public static String format(long[] counts) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < counts.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(counts[i]);
        }
        return sb.toString();
    }

    /** The counts of {@link #format}; missing or malformed buckets read as 0. */
    public static long[] parse(String text) {
        long[] counts = new long[BUCKETS];
        if (text == null || text.isEmpty()) {
            return counts;
        }
        String[] parts = text.split(",");
        for (int i = 0; i < Math.min(parts.length, BUCKETS); i++) {
            try {
                counts[i] = Long.parseLong(parts[i].trim());
            } catch (NumberFormatException e) {
                counts[i] = 0;
            }
        }
        return counts;
    }
}
