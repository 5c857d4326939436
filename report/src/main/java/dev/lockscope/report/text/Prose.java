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

    /** {@code 1 wait}, {@code 2 waits}. */
    public static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /** {@code text} in lines of at most {@link LockTable#WIDTH} columns, the first begun with {@code first}, the rest with {@code next}. */
    public static void wrap(StringBuilder sb, String text, String first, String next) {
        StringBuilder line = new StringBuilder(first);
        for (String word : text.split(" ")) {
            if (line.length() + word.length() + 1 > LockTable.WIDTH && line.length() > next.length()) {
                sb.append(line.toString().stripTrailing()).append('\n');
                line = new StringBuilder(next);
            }
            line.append(word).append(' ');
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }
}
