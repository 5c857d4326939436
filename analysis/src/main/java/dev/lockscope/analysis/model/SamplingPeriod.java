package dev.lockscope.analysis.model;

/**
 * JFR's text of a period setting: {@code "20 ms"}, {@code "1 s"} (ExecutionSample's period),
 * {@code "10ms"} (CPUTimeSample's throttle), {@code "off"}, {@code "100/s"} (a rate: no period).
 */
final class SamplingPeriod {
    private SamplingPeriod() {
    }

    /** @return the period in nanoseconds, 0 when the text is not a duration ("off", "everyChunk", ...) */
    static long parseNanos(String setting) {
        if (setting == null) {
            return 0;
        }
        String[] parts = setting.trim().split("(?<=\\d)\\s*(?=[a-z])");
        if (parts.length != 2) {
            return 0;
        }
        long amount;
        try {
            amount = Long.parseLong(parts[0]);
        } catch (NumberFormatException e) {
            return 0;
        }
        long unit = switch (parts[1]) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m", "min" -> 60_000_000_000L;
            default -> 0L;
        };
        return amount > 0 ? amount * unit : 0;
    }
}
