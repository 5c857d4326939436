package dev.lockscope.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The one parser of durations given on the command line: {@code 500ms}, {@code 20s}, {@code 1.5s}, {@code 2m}. */
final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|m|h)?");

    /** A year: longer is a typo, and past ~292 years the nanoseconds would not fit in a long. */
    private static final double MAX_NANOS = 365 * 86_400e9;

    private Durations() {
    }

    /**
     * @param option      the option's name, for the message
     * @param defaultUnit the unit of a bare number ({@code ms}, {@code s}), or null to require one
     * @throws UserError  when the text is not a positive duration
     */
    static Duration parse(String text, String option, String defaultUnit) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches() || (m.group(2) == null && defaultUnit == null)) {
            throw new UserError(option + " must be a duration such as 500ms, 20s or 2m, not '" + text + "'");
        }
        double v = Double.parseDouble(m.group(1));
        double nanos = v * switch (m.group(2) == null ? defaultUnit : m.group(2)) {
            case "ns" -> 1;
            case "us" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            default -> 3600e9;
        };
        if (nanos < 1) {
            throw new UserError(option + " must be positive, not '" + text + "'");
        }
        if (nanos > MAX_NANOS) {
            throw new UserError(option + " must be at most 365 days, not '" + text + "'");
        }
        return Duration.ofNanos((long) nanos);
    }
}
