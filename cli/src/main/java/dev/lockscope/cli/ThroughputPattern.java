package dev.lockscope.cli;

import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a workload's throughput from its output: the last match of a regular expression whose first
 * group (or the whole match, without groups) is the number. The default matches the demos' line
 * {@code throughput: 475.500 ops/s}.
 */
final class ThroughputPattern {
    static final String DEFAULT = "throughput:\\s*([0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)\\s*ops/s";

    private final Pattern pattern;

    ThroughputPattern(String regex) {
        try {
            this.pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new UserError("--throughput-regex is not a valid regular expression: " + e.getDescription()
                    + " in '" + regex + "'");
        }
    }

    String regex() {
        return pattern.pattern();
    }

    /** The last number matched, or empty when nothing matched or the match is not a number. */
    OptionalDouble find(String output) {
        Matcher m = pattern.matcher(output);
        OptionalDouble last = OptionalDouble.empty();
        while (m.find()) {
            String number = m.groupCount() >= 1 ? m.group(1) : m.group();
            try {
                last = OptionalDouble.of(Double.parseDouble(number.trim().replace(",", "")));
            } catch (NumberFormatException | NullPointerException notANumber) {
                // keep the previous match
            }
        }
        return last;
    }
}
