package dev.lockscope.analysis.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Two profiles of one program compared (before and after a change): per thread group and for all
 * threads, the degree of overlap and the hot-edge coverage in both directions ({@link ProfileSimilarity},
 * Hofer §3.4), and the call paths whose share of the time grew or shrank most.
 *
 * @param wall      wall-clock profiles compared, else CPU profiles
 * @param threshold hot-edge threshold relative to the hottest edge
 * @param rows      "all threads" first (group null), then every group of either profile by name
 * @param changes   every call path (an edge: its self time) of either profile, the largest change of share first
 */
public record ProfileDiff(boolean wall, double threshold, List<Row> rows, List<Change> changes) {
    /**
     * @param group     the thread group, null for all threads together
     * @param weightA   the group's total in the first profile (samples for CPU, nanoseconds for wall)
     * @param aCoversB  hot-edge coverage of b's hot edges by a's; {@code bCoversA} the reverse
     */
    public record Row(String group, long weightA, long weightB, double overlap, double aCoversB, double bCoversA) {
    }

    /** A call path (thread group first) and its self time's share of all time, before and after. */
    public record Change(List<String> path, double shareA, double shareB) {
        public double delta() {
            return shareB - shareA;
        }
    }

    public static ProfileDiff of(Profiles a, Profiles b, boolean wall, double threshold) {
        List<Row> rows = new ArrayList<>();
        rows.add(row(null, a.tree(wall, null), b.tree(wall, null), threshold));
        Set<String> groups = new TreeSet<>((wall ? a.wallByGroup() : a.cpuByGroup()).keySet());
        groups.addAll((wall ? b.wallByGroup() : b.cpuByGroup()).keySet());
        for (String g : groups) {
            rows.add(row(g, a.tree(wall, g), b.tree(wall, g), threshold));
        }
        return new ProfileDiff(wall, threshold, rows, changes(a.tree(wall, null), b.tree(wall, null)));
    }

    private static Row row(String group, CallTree<String> a, CallTree<String> b, double threshold) {
        return new Row(group, a.totalWeight(), b.totalWeight(), ProfileSimilarity.overlap(a, b),
                ProfileSimilarity.hotEdgeCoverage(a, b, threshold), ProfileSimilarity.hotEdgeCoverage(b, a, threshold));
    }

    private static List<Change> changes(CallTree<String> a, CallTree<String> b) {
        Map<List<String>, Long> ea = a.edgeWeights();
        Map<List<String>, Long> eb = b.edgeWeights();
        Set<List<String>> paths = new LinkedHashSet<>(ea.keySet());
        paths.addAll(eb.keySet());
        Map<List<String>, Change> out = new HashMap<>();
        for (List<String> p : paths) {
            out.put(p, new Change(p, share(ea.get(p), a.totalWeight()), share(eb.get(p), b.totalWeight())));
        }
        List<Change> sorted = new ArrayList<>(out.values());
        sorted.sort(Comparator.comparingDouble((Change c) -> -Math.abs(c.delta())).thenComparing(c -> String.join(";", c.path())));
        return sorted;
    }

    private static double share(Long weight, long total) {
        return weight == null || total == 0 ? 0 : (double) weight / total;
    }
}
