package dev.lockscope.report.text;

import dev.lockscope.core.LockTable;

/**
 * Plain-text pieces every text renderer uses (the report's, blame's, the CPU section's): a package of
 * its own below them, so that the renderers of the sections do not depend on the report that includes
 * them and it on them.
 */
public final class Prose {
    private Prose() {
    }

    /** {@code 12.3 ms}. */
    public static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    /** {@code 1 wait}, {@code 2 waits}. */
    public static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
