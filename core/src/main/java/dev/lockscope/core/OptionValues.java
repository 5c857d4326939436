package dev.lockscope.core;

import java.util.Locale;

/**
 * The one parser of the values of lockscope's agent options, shared by the agent (its option string)
 * and the CLI (which checks the same values before it starts a JVM): durations, sizes and counts, each
 * range-checked, so that a negative or huge value is refused with one line instead of wrapping around
 * (a threshold of {@code 9999999999999s} would overflow JFR's nanoseconds).
 */
public final class OptionValues {
    public static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private OptionValues() {
    }

    /*
     * The range of each agent option's value, shared by the agent and the CLI's spelling of the same
     * options (--threshold, --max-size, ...): each takes the option's name for its one-line message.
     */
    /** Longest threshold and sampling period: longer ones record nothing useful. */
    public static final long MAX_THRESHOLD_NANOS = 3_600_000_000_000L;
    public static final long MAX_RECORDING_BYTES = 1L << 40;

    /** Record waits at least this long: 0 to 1h. */
    public static long threshold(String option, String value) {
        return durationNanos(option, value, 0, MAX_THRESHOLD_NANOS);
    }

    /**
     * Waits shorter than this are sampled by length (lockscope's Park events): 0 (every wait recorded) to 1s,
     * the most the agent's sampling decision can carry.
     */
    public static long sampleBelow(String option, String value) {
        return durationNanos(option, value, 0, MAX_SAMPLE_BELOW_NANOS);
    }

    /** The longest sampleBelow: the agent's sampling decision carries a time parked below it in 32 bits. */
    public static final long MAX_SAMPLE_BELOW_NANOS = 1_000_000_000L;

    /**
     * The agent's stack budget: events with a stack (parks and unparks together) written at most a second, 0 for no
     * budget, at most {@link #MAX_STACK_BUDGET}.
     */
    public static long stackBudget(String option, String value) {
        return count(option, value, 0, MAX_STACK_BUDGET);
    }

    /** The default stack budget, events with a stack a second. */
    public static final long DEFAULT_STACK_BUDGET = 20_000;
    /** The highest stack budget: the agent counts a second's grants in 24 bits. */
    public static final long MAX_STACK_BUDGET = (1L << 24) - 1;

    /** JFR's CPU sampling period: 1ms (JFR's shortest) to 1h. */
    public static long cpuSamples(String option, String value) {
        return durationNanos(option, value, 1_000_000, MAX_THRESHOLD_NANOS);
    }

    /** 0 (no cap) or at least 1 MB: below that JFR would keep less than one chunk. */
    public static long maxSize(String option, String value) {
        long bytes = bytes(option, value, 0, MAX_RECORDING_BYTES);
        if (bytes != 0 && bytes < (1 << 20)) {
            throw new IllegalArgumentException(option + " must be 0 (no cap) or at least 1m, not '" + value + "'");
        }
        return bytes;
    }

    /** 0 (no cap) up to 365 days. */
    public static long maxAge(String option, String value) {
        return durationNanos(option, value, 0, 365 * NANOS_PER_DAY);
    }

    /** Collection and print thresholds: a number of parks. */
    public static long parkCount(String option, String value) {
        return count(option, value, 0, Long.MAX_VALUE);
    }

    /**
     * {@code 0}, {@code 250ns}, {@code 10us}, {@code 20ms}, {@code 1s}, {@code 2m}, {@code 1h}, {@code 1d}.
     *
     * @throws IllegalArgumentException naming {@code option} when the text is no duration or lies outside [min, max]
     */
    public static long durationNanos(String option, String text, long minNanos, long maxNanos) {
        String v = text.trim().toLowerCase(Locale.ROOT);
        long nanos = -1;
        if (v.equals("0")) {
            nanos = 0;
        } else {
            String[] units = {"ns", "us", "ms", "s", "m", "h", "d"};
            long[] scale = {1, 1_000, 1_000_000, 1_000_000_000, 60_000_000_000L, 3_600_000_000_000L, NANOS_PER_DAY};
            for (int i = 0; i < units.length && nanos == -1; i++) {
                // "ms" must not be read as "m" + "s": the two-letter units come first and "s" needs a digit before it
                if (v.endsWith(units[i]) && v.length() > units[i].length()
                        && Character.isDigit(v.charAt(v.length() - units[i].length() - 1))) {
                    nanos = scaled(v.substring(0, v.length() - units[i].length()), scale[i]);
                }
            }
        }
        if (nanos < 0 && nanos != Long.MIN_VALUE) {
            throw new IllegalArgumentException(option + " must be a duration such as 0, 10us, 20ms, 5s, 2m, 1h or 1d, not '" + text + "'");
        }
        return inRange(option, nanos, minNanos, maxNanos, text, OptionValues::formatNanos);
    }

    /** {@code 0}, {@code 4096}, {@code 512k}, {@code 256m}, {@code 2g}: bytes. */
    public static long bytes(String option, String text, long min, long max) {
        String v = text.trim().toLowerCase(Locale.ROOT);
        long bytes = -1;
        if (!v.isEmpty()) {
            int k = "kmg".indexOf(v.charAt(v.length() - 1));
            bytes = k < 0 ? scaled(v, 1) : scaled(v.substring(0, v.length() - 1), 1L << (10 * (k + 1)));
        }
        if (bytes < 0 && bytes != Long.MIN_VALUE) {
            throw new IllegalArgumentException(option + " must be a size such as 0, 512k, 256m or 2g, not '" + text + "'");
        }
        return inRange(option, bytes, min, max, text, OptionValues::formatBytes);
    }

    /** A whole number in [min, max]. */
    public static long count(String option, String text, long min, long max) {
        long n = scaled(text.trim(), 1);
        if (n < 0 && n != Long.MIN_VALUE) {
            throw new IllegalArgumentException(option + " must be a whole number, not '" + text + "'");
        }
        return inRange(option, n, min, max, text, Long::toString);
    }

    /** Digits times {@code unit}, or -1 when not digits or when the product does not fit in a long. */
    private static long scaled(String digits, long unit) {
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
            return digits.startsWith("-") ? Long.MIN_VALUE : -1;
        }
        long n = Long.parseLong(digits);
        return n > Long.MAX_VALUE / unit ? Long.MAX_VALUE : n * unit;
    }

    private static long inRange(String option, long value, long min, long max, String text,
                                java.util.function.LongFunction<String> format) {
        if (value == Long.MIN_VALUE) {
            throw new IllegalArgumentException(option + " must not be negative, not '" + text + "'");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " must be between " + format.apply(min) + " and "
                    + format.apply(max) + ", not '" + text + "'");
        }
        return value;
    }

    /** The shortest exact text of a duration in the syntax above: {@code 1d}, {@code 20ms}, {@code 1500us}. */
    public static String formatNanos(long nanos) {
        if (nanos == 0) {
            return "0";
        }
        String[] units = {"d", "h", "m", "s", "ms", "us"};
        long[] scale = {NANOS_PER_DAY, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000, 1_000_000, 1_000};
        for (int i = 0; i < units.length; i++) {
            if (nanos % scale[i] == 0) {
                return nanos / scale[i] + units[i];
            }
        }
        return nanos + "ns";
    }

    public static String formatBytes(long bytes) {
        String[] units = {"g", "m", "k"};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << (10 * (3 - i));
            if (bytes != 0 && bytes % unit == 0) {
                return bytes / unit + units[i];
            }
        }
        return Long.toString(bytes);
    }
}
