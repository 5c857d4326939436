package dev.lockscope.report.blame;

import dev.lockscope.core.LockId;

import dev.lockscope.report.text.Prose;

import dev.lockscope.core.LockTable;
import dev.lockscope.report.TextReport;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameNode;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.blame.ChainView;
import dev.lockscope.analysis.blame.HandoffHold;
import dev.lockscope.analysis.blame.LockChainShare;
import dev.lockscope.analysis.blame.OwnerChain;
import dev.lockscope.analysis.blame.WaitRow;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Owner blame as text: the aggregation tree (indentation, share of all contention, time, count),
 * the owner-chain classes per lock, and the conditional waits kept apart from contention.
 */
public final class BlameTextReport {
    /** Why a thread, method or chain can be {@code (unknown)}: printed once under a report that shows one. */
    static final String UNKNOWN_REASONS = String.format(Locale.ROOT, "%s means nothing was recorded about what was waited for: no%n"
            + "  previous owner of a monitor, a park that no recorded unpark woke; for a conditional wait,%n"
            + "  no signal was recorded (a timeout, an interrupt, or one before the recording).%n",
            ChainView.UNKNOWN);
    /** The named causes that stand where no owner chain is, each explained once under a report that shows it. */
    private static final Map<String, String> NAMED_CAUSES = new LinkedHashMap<>();

    static {
        NAMED_CAUSES.put(OwnerChain.HANDOFF_GAP.missingKey(), "the lock had been released to the waiter, which was runnable,%n"
                + "  waiting for a CPU (the unpark that woke it until it ran)");
        NAMED_CAUSES.put(OwnerChain.NO_OWNER.missingKey(), "a blocker without an owner (Semaphore, latch, queue) that nothing%n"
                + "  recorded woke; where a release or signal woke the waiter, that thread is named instead");
        // the agent records file I/O only when asked (its clock reads cost a logger's appender about 5%), so an
        // owner waiting for the disk lands here: the explanation says how to see it
        NAMED_CAUSES.put(OwnerChain.NOT_RECORDED.missingKey(), "the owner thread is known, but none of its stacks was recorded%n"
                + "  while it held the lock (no sample, wait, socket I/O or contended acquisition): holds shorter%n"
                + "  than the sampling period, or off CPU in something not recorded, such as file I/O%n"
                + "  (`lockscope record --file-io` records it)");
    }

    private BlameTextReport() {
    }

    public static String render(BlameSummary s) {
        return render(s, Integer.MAX_VALUE);
    }

    /** The same with at most {@code top} groups at each level of the tree, chain shares and waits. */
    public static String render(BlameSummary s, int top) {
        return render(s, top, LockId::label);
    }

    /**
     * The same, the locks of the chain shares and waits named by {@code lockName}: the table's name of the lock's
     * row ({@code LockContention.rowLabels}), as the tree's keys name them already (ReportBuilder).
     */
    public static String render(BlameSummary s, int top, Function<LockId, String> lockName) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Owner blame: %s of contention in %s, grouped by %s%s%n",
                Prose.millis(s.totalNanos()), Prose.count(s.contentionCount(), "span"),
                s.groupBy().stream().map(Aspect::label).collect(Collectors.joining(" > ")),
                s.raw() ? " (raw chains)" : ""));
        out.append(String.format(Locale.ROOT, "%8s %12s %7s  %s%n", "share", "time", "count", "group"));
        children(out, s.tree().children(), 0, top);
        chainShares(out, s, top, lockName);
        waits(out, s, top, lockName);
        boolean first = true;
        for (Map.Entry<String, String> named : NAMED_CAUSES.entrySet()) {
            if (out.indexOf(named.getKey()) >= 0) {
                out.append(String.format(Locale.ROOT, (first ? "%n" : "") + "%s: " + named.getValue() + ".%n", named.getKey()));
                first = false;
            }
        }
        if (out.indexOf(ChainView.UNKNOWN) >= 0) {
            out.append(String.format(Locale.ROOT, (first ? "%n" : "") + "%s", UNKNOWN_REASONS));
        }
        return out.toString();
    }

    /**
     * Below the first level of a cut tree, groups under this share of all contention are left out too
     * (the first of each level stays), as the table leaves out small locks' details: a real application's
     * tree under ten locks is otherwise mostly lines of 0.0%.
     */
    static final double SMALL_GROUP_SHARE = 0.01;

    private static void children(StringBuilder out, List<BlameNode> children, int depth, int top) {
        int shown = 0;
        for (BlameNode child : children.subList(0, Math.min(top, children.size()))) {
            if (shown > 0 && depth > 0 && top != Integer.MAX_VALUE && child.share() < SMALL_GROUP_SHARE) {
                break; // children are ordered by total: the rest are smaller still
            }
            node(out, child, children, depth, top);
            shown++;
        }
        if (shown < Math.min(top, children.size())) {
            out.append(String.format(Locale.ROOT, "%8s %12s %7s  %s(%d more under %s of all, or past --top)%n", "", "", "",
                    "  ".repeat(depth + 1), children.size() - shown, BlameText.percent(SMALL_GROUP_SHARE).trim()));
        } else {
            more(out, children.size(), top, "  ".repeat(depth + 1));
        }
    }

    /** "(N more, --top)" when a section was cut. */
    private static void more(StringBuilder out, int size, int top, String indent) {
        if (size > top) {
            out.append(String.format(Locale.ROOT, "%8s %12s %7s  %s(%d more, --top)%n", "", "", "", indent, size - top));
        }
    }

    private static void node(StringBuilder out, BlameNode n, List<BlameNode> siblings, int depth, int top) {
        int width = Math.max(20, LockTable.WIDTH - 31 - 2 * depth); // keep lines within 100 columns
        String key = n.aspect() == Aspect.OWNER_CHAIN || n.aspect() == Aspect.WAITER_CHAIN
                ? BlameText.shortChain(n.key(), siblings.stream().map(BlameNode::key).toList(), width)
                : LockTable.abbreviate(n.key(), width);
        out.append(String.format(Locale.ROOT, "%8s %12s %7d  %s%s%n", BlameText.percent(n.share()),
                Prose.millis(n.totalNanos()), n.count(), "  ".repeat(depth), key));
        children(out, n.children(), depth + 1, top);
    }

    private static void chainShares(StringBuilder out, BlameSummary s, int top, Function<LockId, String> lockName) {
        if (s.chainShares().isEmpty()) {
            return;
        }
        out.append(String.format(Locale.ROOT, "%nOwner chains per lock (exact: recorded at release; the others "
                + "approximate, docs/owner-blame.md):%n"));
        for (LockChainShare l : s.chainShares().subList(0, Math.min(top, s.chainShares().size()))) {
            out.append("  ").append(LockTable.abbreviate(lockName.apply(l.lock()), LockTable.WIDTH - 2)).append(System.lineSeparator());
            out.append("   ");
            for (OwnerChain c : OwnerChain.values()) {
                if (l.share(c) > 0 || c == OwnerChain.EXACT) { // the classes present (exact always, as the reference)
                    out.append(String.format(Locale.ROOT, "  %s %s", c.label(), BlameText.percent(l.share(c)).trim()));
                }
            }
            out.append(System.lineSeparator());
            HandoffHold hold = s.handoffHold(l.lock());
            if (hold != null && l.lock().kind() == dev.lockscope.core.LockKind.MONITOR) {
                // no JDK event shows a monitor taken back without contention: a measured tenure is one or more holds
                out.append(String.format(Locale.ROOT, "     avg tenure %.2f ms between hand-offs (%s of one or more holds)%n",
                        hold.avgNanos() / 1e6, Prose.count(hold.holds(), "tenure")));
            } else if (hold != null) {
                out.append(String.format(Locale.ROOT, "     avg hold %.2f ms between hand-offs (%s)%n", hold.avgNanos() / 1e6,
                        Prose.count(hold.holds(), "hold")));
            }
        }
        if (s.chainShares().size() > top) {
            out.append("  (").append(s.chainShares().size() - top).append(" more, --top)").append(System.lineSeparator());
        }
    }

    private static void waits(StringBuilder out, BlameSummary s, int top, Function<LockId, String> lockName) {
        if (s.waits().isEmpty()) {
            return;
        }
        out.append(String.format(Locale.ROOT, "%nConditional waits (Object.wait, Condition.await; not contention):%n"));
        for (WaitRow w : s.waits().subList(0, Math.min(top, s.waits().size()))) {
            out.append(LockTable.clipLines(String.format(Locale.ROOT, "  %12s %5d  %s in %s", Prose.millis(w.nanos()),
                    w.count(), BlameText.thread(w.waiterThread()), LockTable.abbreviate(w.waiterMethod(), 60))))
                    .append(System.lineSeparator());
            out.append(LockTable.clipLines(String.format(Locale.ROOT, "%22s on %s, notified by %s%s", "",
                    LockTable.abbreviate(lockName.apply(w.lock()), 50), BlameText.thread(w.notifier()),
                    w.timedOut() > 0 ? " (" + w.timedOut() + " timed out)" : ""))).append(System.lineSeparator());
        }
        if (s.waits().size() > top) {
            out.append("  (").append(s.waits().size() - top).append(" more, --top)").append(System.lineSeparator());
        }
    }
}
