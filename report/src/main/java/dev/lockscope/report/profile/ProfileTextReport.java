package dev.lockscope.report.profile;

import dev.lockscope.report.text.Prose;

import dev.lockscope.analysis.profile.CallTree;
import dev.lockscope.analysis.profile.Profiles;
import dev.lockscope.report.export.ProfileStacks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code lockscope profile}'s text: the thread groups, the flat profile (methods by self time, with
 * their total time counted once per sample even in recursion) and the call tree down to the nodes
 * that hold at least {@link #TREE_MIN_SHARE} of the time.
 */
public final class ProfileTextReport {
    static final double TREE_MIN_SHARE = 0.01;

    private ProfileTextReport() {
    }

    /**
     * @param wall  the wall-clock profile, else the CPU profile
     * @param group one thread group, or null for all
     * @param top   rows shown in each section
     */
    public static String render(Profiles p, boolean wall, String group, int top) {
        StringBuilder out = new StringBuilder();
        CallTree<String> tree = p.tree(wall, group);
        long total = tree.totalWeight();
        String period = Prose.millis(p.samplingPeriodNanos()) + (p.periodFromRecording() ? "" : " (assumed: the recording does not say)");
        if (wall) {
            long running = group == null ? p.wallRunningNanos() : -1;
            out.append("Wall-clock profile").append(group == null ? "" : " of " + group).append(": ")
                    .append(seconds(total)).append(" of thread time");
            if (running >= 0) {
                out.append(", ").append(seconds(running)).append(" running (execution samples every ").append(period)
                        .append("), ").append(seconds(total - running))
                        .append(" waiting (recorded lock, park, wait, sleep and I/O events)");
            }
            out.append('\n');
        } else {
            out.append("CPU profile").append(group == null ? "" : " of " + group).append(": ").append(total)
                    .append(" samples every ").append(period).append(" (")
                    .append(seconds(ProfileStacks.nanos(p, false, total))).append(" of CPU)\n");
        }
        if (total == 0) {
            out.append(wall ? "  nothing recorded: no execution samples and no recorded waits\n"
                    : "  no execution samples: record with the agent's cpuSamples on (the default, 20ms)\n");
            return out.toString();
        }
        if (group == null) {
            out.append("\nThread groups\n").append(String.format(Locale.ROOT, "  %7s  %10s  %s%n", "share", "time", "group"));
            List<CallTree.Node<String>> groups = children(tree.root());
            for (CallTree.Node<String> g : groups.subList(0, Math.min(top, groups.size()))) {
                out.append(String.format(Locale.ROOT, "  %6.2f%%  %10s  %s%n", 100.0 * g.totalWeight() / total,
                        seconds(ProfileStacks.nanos(p, wall, g.totalWeight())), g.frame()));
            }
            more(out, groups.size() - top, "group");
        }
        out.append("\nFlat profile (methods by self time)\n")
                .append(String.format(Locale.ROOT, "  %7s  %7s  %10s  %10s  %s%n", "self", "total", "self", "total", "method"));
        List<Map.Entry<String, long[]>> flat = new ArrayList<>(tree.flat().entrySet());
        if (group == null) {
            flat.removeIf(e -> isGroup(tree, e.getKey())); // the group frames are no methods
        }
        flat.sort(Comparator.comparingLong((Map.Entry<String, long[]> e) -> -e.getValue()[0])
                .thenComparingLong(e -> -e.getValue()[1]).thenComparing(Map.Entry::getKey));
        for (Map.Entry<String, long[]> e : flat.subList(0, Math.min(top, flat.size()))) {
            long[] st = e.getValue();
            out.append(String.format(Locale.ROOT, "  %6.2f%%  %6.2f%%  %10s  %10s  %s%n", 100.0 * st[0] / total,
                    100.0 * st[1] / total, seconds(ProfileStacks.nanos(p, wall, st[0])),
                    seconds(ProfileStacks.nanos(p, wall, st[1])), e.getKey()));
        }
        more(out, flat.size() - top, "method");
        out.append(String.format(Locale.ROOT, "%nCall tree (total, then self; nodes under %.0f%% left out)%n", TREE_MIN_SHARE * 100));
        int[] lines = {0};
        tree(out, tree.root(), total, 1, top * 5, lines);
        return out.toString();
    }

    private static boolean isGroup(CallTree<String> tree, String frame) {
        for (CallTree.Node<String> g : tree.root().children()) {
            if (g.frame().equals(frame)) {
                return true;
            }
        }
        return false;
    }

    private static void tree(StringBuilder out, CallTree.Node<String> node, long total, int depth, int maxLines, int[] lines) {
        for (CallTree.Node<String> c : children(node)) {
            if (c.totalWeight() < TREE_MIN_SHARE * total) {
                return; // children are sorted: the rest are smaller
            }
            if (lines[0]++ >= maxLines) {
                if (lines[0] == maxLines + 1) {
                    out.append("  ... (more with --top)\n");
                }
                return;
            }
            out.append(String.format(Locale.ROOT, "  %6.2f%% %6.2f%% %s%s%n", 100.0 * c.totalWeight() / total,
                    100.0 * c.selfWeight() / total, "  ".repeat(depth - 1), c.frame()));
            tree(out, c, total, depth + 1, maxLines, lines);
        }
    }

    private static List<CallTree.Node<String>> children(CallTree.Node<String> n) {
        List<CallTree.Node<String>> out = new ArrayList<>();
        n.children().forEach(out::add);
        out.sort(Comparator.comparingLong((CallTree.Node<String> c) -> -c.totalWeight()).thenComparing(CallTree.Node::frame));
        return out;
    }

    private static void more(StringBuilder out, int left, String noun) {
        if (left > 0) {
            out.append("  ... ").append(left).append(" more ").append(noun).append(left == 1 ? "" : "s").append(" (--top)\n");
        }
    }

    static String seconds(long nanos) {
        return nanos >= 1_000_000_000L ? String.format(Locale.ROOT, "%.2f s", nanos / 1e9) : Prose.millis(nanos);
    }
}
