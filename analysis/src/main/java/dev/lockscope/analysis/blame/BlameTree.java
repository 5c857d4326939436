package dev.lockscope.analysis.blame;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds the aggregation tree over an ordered list of aspects (Hofer §4.3.2, Fig. 4.8). */
public final class BlameTree {
    private static final Comparator<BlameNode> ORDER = Comparator.comparingLong(BlameNode::totalNanos).reversed()
            .thenComparing(BlameNode::key);

    private BlameTree() {
    }

    /** The root ("all") with one level per aspect; every contention sum lands in exactly one leaf. */
    public static BlameNode build(List<Contention> contentions, List<Aspect> aspects, ChainView view) {
        long grand = 0;
        for (Contention c : contentions) {
            grand += c.nanos();
        }
        return node(null, "all", contentions, aspects, view, grand);
    }

    private static BlameNode node(Aspect aspect, String key, List<Contention> group, List<Aspect> rest, ChainView view,
                                  long grand) {
        if (rest.isEmpty()) {
            long total = 0;
            long count = 0;
            for (Contention c : group) {
                total += c.nanos();
                count += c.count();
            }
            return new BlameNode(aspect, key, total, count, share(total, grand), List.of());
        }
        Aspect next = rest.get(0);
        Map<String, List<Contention>> byKey = new TreeMap<>();
        for (Contention c : group) {
            byKey.computeIfAbsent(next.keyOf(c, view), k -> new ArrayList<>()).add(c);
        }
        List<BlameNode> children = new ArrayList<>();
        long total = 0;
        long count = 0;
        for (Map.Entry<String, List<Contention>> e : byKey.entrySet()) {
            BlameNode child = node(next, e.getKey(), e.getValue(), rest.subList(1, rest.size()), view, grand);
            children.add(child);
            total += child.totalNanos();
            count += child.count();
        }
        children.sort(ORDER);
        return new BlameNode(aspect, key, total, count, share(total, grand), children);
    }

    private static double share(long part, long grand) {
        return grand == 0 ? 0 : (double) part / grand;
    }
}
