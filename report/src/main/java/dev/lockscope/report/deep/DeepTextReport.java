package dev.lockscope.report.deep;

import dev.lockscope.analysis.deep.DeepResult;
import dev.lockscope.analysis.deep.LibraryLockAdvice;
import dev.lockscope.analysis.model.DeepCounts;
import dev.lockscope.analysis.model.DeepInfo;
import dev.lockscope.analysis.model.DeepLock;
import dev.lockscope.analysis.model.DeepSite;
import dev.lockscope.core.HoldHistogram;
import dev.lockscope.core.LockTable;

import java.util.List;
import java.util.Locale;

/**
 * Deep mode's section of the text report: JLM's table per lock and per site, the hold histogram, lock
 * behaviour, and the library lock that fits each lock.
 */
public final class DeepTextReport {
    private DeepTextReport() {
    }

    /** The section, preceded by an empty line; each table cut to its first {@code top} rows. */
    public static String render(DeepResult deep, int top) {
        StringBuilder sb = new StringBuilder("\ndeep mode: every acquisition");
        DeepInfo info = deep.info();
        if (info != null) {
            sb.append(" in ").append(info.selection()).append(" (").append(info.classes()).append(" classes, ")
                    .append(info.sites()).append(" sites)");
        }
        sb.append('\n');
        if (info != null && info.probeNanos() > 0) {
            sb.append(String.format(Locale.ROOT, "  probe cost %d ns per acquisition; each hold measured %d ns longer by the probes%n",
                    info.probeNanos(), info.holdInflationNanos()));
        } else if (info != null) {
            sb.append("  probe cost not measured: the run ended before the agent's calibration (about a second) did\n");
        }
        if (info != null && info.untracked() > 0) {
            sb.append("  ").append(info.untracked()).append(" acquisitions of objects past the agent's record limit count at their site only\n");
        }
        List<DeepLock> locks = deep.locks();
        sb.append(header("lock"));
        for (int i = 0; i < Math.min(top, locks.size()); i++) {
            DeepLock l = locks.get(i);
            sb.append(row(i + 1, l.kind(), l.counts(), deep.durationNanos())).append('\n');
            String first = l.firstSite() == null ? "" : "  (first locked by " + l.firstLocker() + " at " + l.firstSite() + ")";
            sb.append(LockTable.clipLines("      " + l.lockClass() + "@" + Integer.toHexString(l.lockHash()) + first)).append('\n');
        }
        more(sb, locks.size(), top, "lock");
        List<DeepSite> sites = deep.sites().stream().filter(s -> s.counts().gets() > 0).toList();
        if (!sites.isEmpty()) {
            sb.append(header("acquiring site"));
            for (int i = 0; i < Math.min(top, sites.size()); i++) {
                DeepSite s = sites.get(i);
                sb.append(row(i + 1, shortKind(s.kind()), s.counts(), deep.durationNanos())).append('\n');
                sb.append(LockTable.clipLines("      " + s.site())).append('\n');
            }
            more(sb, sites.size(), top, "site");
        }
        DeepCounts all = deep.totals();
        sb.append(all.holdsExact() ? "  hold times:" : "  hold times (sampled):");
        for (int i = 0; i < HoldHistogram.BUCKETS; i++) {
            sb.append(' ').append(HoldHistogram.label(i)).append(' ').append(all.holdHistogram()[i]);
        }
        sb.append('\n');
        sb.append("lock behaviour:\n");
        for (String sentence : deep.behaviour().sentences()) {
            wrap(sb, sentence);
        }
        if (!all.holdsExact()) {
            wrap(sb, String.format(Locale.ROOT, "Hold times were timed for %d of %d locked sections (every one of an object's "
                    + "first 1,024, then one in 16, each counted 16 times); the longest hold is the longest timed one.",
                    all.timedSections(), all.sections()));
        }
        wrap(sb, "slow: begun while another thread held the lock; blocked: of those, the ones that blocked in the JVM "
                + "(monitors; what JFR's jdk.JavaMonitorEnter records) or parked (java.util.concurrent locks). "
                + "The rest were won by spinning.");
        if (!deep.libraryLocks().isEmpty()) {
            sb.append("library locks (lockscope-locks):\n");
            for (LibraryLockAdvice a : deep.libraryLocks().subList(0, Math.min(top, deep.libraryLocks().size()))) {
                sb.append(LockTable.clipLines("  " + a.lock().lockClass() + "@" + Integer.toHexString(a.lock().lockHash())
                        + (a.lock().firstSite() == null ? "" : " at " + a.lock().firstSite()))).append('\n');
                wrap(sb, a.sentence());
            }
        }
        return sb.toString();
    }

    private static String header(String what) {
        return String.format(Locale.ROOT, "  %-3s %-7s %9s %9s %8s %8s %6s %8s %6s %9s %9s%n      %s%n",
                "#", "kind", "gets", "nonrec", "slow", "blocked", "%miss", "rec", "%util", "avg hold", "max hold", what);
    }

    private static String row(int rank, String kind, DeepCounts c, long durationNanos) {
        return String.format(Locale.ROOT, "  %-3d %-7s %9d %9d %8d %8d %6.2f %8d %6.2f %9s %9s", rank, kind, c.gets(),
                c.nonRecursive(), c.slow(), c.blocked(), c.missPct(), c.recursive(), c.utilPct(durationNanos),
                time(c.avgHoldNanos()), time(c.maxHoldNanos()));
    }

    /** A site's kind in the table's column: {@code monitorenter} is "enter", a synchronized method "method". */
    private static String shortKind(String kind) {
        return switch (kind) {
            case "monitorenter" -> "enter";
            case "synchronized-method" -> "method";
            default -> kind;
        };
    }

    /** A duration in the unit that keeps it short: ns, us, ms or s. */
    static String time(long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        }
        if (nanos < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
        }
        if (nanos < 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    private static void more(StringBuilder sb, int size, int top, String noun) {
        if (size > top) {
            sb.append("  (").append(size - top).append(" more ").append(noun).append("s, --top)\n");
        }
    }

    private static void wrap(StringBuilder sb, String text) {
        StringBuilder line = new StringBuilder("  - ");
        for (String word : text.split(" ")) {
            if (line.length() + word.length() + 1 > LockTable.WIDTH && line.length() > 4) {
                sb.append(line.toString().stripTrailing()).append('\n');
                line = new StringBuilder("    ");
            }
            line.append(word).append(' ');
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }
}
