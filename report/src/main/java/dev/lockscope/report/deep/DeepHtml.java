package dev.lockscope.report.deep;

import dev.lockscope.analysis.deep.DeepResult;
import dev.lockscope.analysis.deep.LibraryLockAdvice;
import dev.lockscope.analysis.model.DeepCounts;
import dev.lockscope.analysis.model.DeepInfo;
import dev.lockscope.analysis.model.DeepLock;
import dev.lockscope.analysis.model.DeepSite;
import dev.lockscope.core.HoldHistogram;

import java.util.List;
import java.util.Locale;

/**
 * Deep mode's section of the HTML page, drawn here as static HTML (as the bottle graph's SVG is): the
 * probe cost, the lock-behaviour sentences and policy hit ratios, JLM's tables per lock and per site
 * (the first {@link #ROWS} of each), each with its hold-time histogram as a row of bars.
 */
public final class DeepHtml {
    static final int ROWS = 200;

    private DeepHtml() {
    }

    public static String fragment(DeepResult deep) {
        StringBuilder sb = new StringBuilder();
        DeepInfo info = deep.info();
        if (info != null) {
            sb.append("<p class=\"hint\">Every acquisition in ").append(esc(info.selection())).append(": ")
                    .append(info.classes()).append(" classes, ").append(info.sites()).append(" sites instrumented");
            if (info.probeNanos() > 0) {
                sb.append("; the probes cost ").append(info.probeNanos()).append(" ns per acquisition and lengthen each measured hold by ")
                        .append(info.holdInflationNanos()).append(" ns");
            }
            sb.append(".</p>");
        }
        var b = deep.behaviour();
        sb.append("<h3>Lock behaviour</h3><table class=\"deep\"><tr><th>figure</th><th>value</th></tr>");
        policy(sb, "first repetition (thread locality), recursive acquisitions counted", b.firstRepetitionPct());
        policy(sb, "first repetition, outermost acquisitions only", b.firstRepetitionNonRecursivePct());
        policy(sb, "hit ratio: reserved for the first locker until a second thread locks it", b.reserveUntilSecondThreadHitPct());
        policy(sb, "hit ratio: reserved for the first locker for good", b.reserveForeverHitPct());
        sb.append("<tr><td>objects locked by two or more threads</td><td>").append(b.objectsLockedByOthers()).append(" of ")
                .append(b.objectsLocked()).append("</td></tr></table>");
        if (!b.contention().isEmpty()) {
            sb.append("<table class=\"deep\"><tr><th>group</th><th>contended monitors</th><th>sync operations</th>")
                    .append("<th>fat sections per object</th><th>operations per fat section</th><th>operations per flat section</th></tr>");
            for (var g : b.contention()) {
                sb.append("<tr><td>").append(g.group()).append("</td><td>").append(g.heavyObjects()).append("</td><td>")
                        .append(g.syncOps()).append("</td><td>").append(fixed(g.fatSectionsPerObject())).append("</td><td>")
                        .append(fixed(g.opsPerFatSection())).append("</td><td>").append(fixed(g.opsPerFlatSection()))
                        .append("</td></tr>");
            }
            sb.append("</table>");
        }
        sb.append("<ul>");
        for (String s : b.sentences()) {
            sb.append("<li>").append(esc(s)).append("</li>");
        }
        sb.append("</ul>");
        if (!deep.libraryLocks().isEmpty()) {
            sb.append("<h3>Library locks</h3><table class=\"deep\"><tr><th>lock</th><th>fits</th><th>pays</th><th>why</th></tr>");
            for (LibraryLockAdvice a : deep.libraryLocks().subList(0, Math.min(ROWS, deep.libraryLocks().size()))) {
                sb.append("<tr><td>").append(esc(a.lock().lockClass() + "@" + Integer.toHexString(a.lock().lockHash())))
                        .append("</td><td>").append(esc(a.recommendation().lockClass)).append("</td><td>")
                        .append(a.pays() ? "yes" : "no").append("</td><td>").append(esc(a.sentence())).append("</td></tr>");
            }
            sb.append("</table>");
        }
        List<DeepLock> locks = deep.locks();
        sb.append("<h3>Locks</h3><div class=\"scroll\"><table class=\"deep\">").append(header("lock"));
        for (DeepLock l : locks.subList(0, Math.min(ROWS, locks.size()))) {
            row(sb, l.kind(), l.counts(), deep.durationNanos(), l.lockClass() + "@" + Integer.toHexString(l.lockHash()));
        }
        sb.append("</table></div>");
        left(sb, locks.size());
        List<DeepSite> sites = deep.sites().stream().filter(s -> s.counts().gets() > 0).toList();
        sb.append("<h3>Acquiring sites</h3><div class=\"scroll\"><table class=\"deep\">").append(header("site"));
        for (DeepSite s : sites.subList(0, Math.min(ROWS, sites.size()))) {
            row(sb, s.kind(), s.counts(), deep.durationNanos(), s.site());
        }
        sb.append("</table></div>");
        left(sb, sites.size());
        return sb.toString();
    }

    private static String fixed(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static void policy(StringBuilder sb, String what, double pct) {
        sb.append("<tr><td>").append(esc(what)).append("</td><td>")
                .append(String.format(Locale.ROOT, "%.2f%%", pct)).append("</td></tr>");
    }

    private static String header(String what) {
        StringBuilder sb = new StringBuilder("<tr>");
        for (String h : new String[]{"kind", "gets", "nonrec", "slow", "blocked", "%miss", "rec", "%util", "avg hold", "max hold",
                "hold histogram (" + HoldHistogram.label(0) + " … " + HoldHistogram.label(HoldHistogram.BUCKETS - 1) + ")", what}) {
            sb.append("<th>").append(esc(h)).append("</th>");
        }
        return sb.append("</tr>").toString();
    }

    private static void row(StringBuilder sb, String kind, DeepCounts c, long durationNanos, String what) {
        sb.append("<tr><td>").append(esc(kind)).append("</td>");
        for (long n : new long[]{c.gets(), c.nonRecursive(), c.slow(), c.blocked()}) {
            sb.append("<td class=\"num\">").append(n).append("</td>");
        }
        sb.append(String.format(Locale.ROOT, "<td class=\"num\">%.2f</td><td class=\"num\">%d</td><td class=\"num\">%.2f</td>",
                c.missPct(), c.recursive(), c.utilPct(durationNanos)));
        sb.append("<td class=\"num\">").append(DeepTextReport.time(c.avgHoldNanos())).append("</td><td class=\"num\">")
                .append(DeepTextReport.time(c.maxHoldNanos())).append("</td><td>").append(histogram(c.holdHistogram()))
                .append("</td><td>").append(esc(what)).append("</td></tr>");
    }

    /** One bar per bucket, heights relative to the fullest bucket; each bar's title gives its bucket and count. */
    private static String histogram(long[] counts) {
        long max = 1;
        for (long n : counts) {
            max = Math.max(max, n);
        }
        StringBuilder sb = new StringBuilder("<span class=\"deep-histogram\">");
        for (int i = 0; i < counts.length; i++) {
            int height = counts[i] == 0 ? 0 : (int) Math.max(1, Math.round(16.0 * counts[i] / max));
            sb.append("<span title=\"").append(esc(HoldHistogram.label(i))).append(": ").append(counts[i])
                    .append("\" style=\"display:inline-block;width:6px;margin-right:1px;vertical-align:bottom;background:#4a7ab5;height:")
                    .append(height).append("px\"></span>");
        }
        return sb.append("</span>").toString();
    }

    private static void left(StringBuilder sb, int size) {
        if (size > ROWS) {
            sb.append("<p class=\"hint\">").append(size - ROWS).append(" more rows in the JSON report.</p>");
        }
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
