package dev.lockscope.analysis.profile;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A calling context tree: samples merged by their call path from the root, each node keeping its
 * self weight (samples, or nanoseconds, in which its method was the executing, top-most one) and its
 * total weight (itself and everything it called). Hofer, <i>Method Profiling and Lock Contention
 * Profiling on the JVM Level</i>, §3.1: "the weight of an edge is the number of samples in which the
 * callee was the executing (top-most) method"; an edge is identified by its callee together with all
 * its callers up to the root (two nodes are equivalent when their methods and their parents are).
 *
 * @param <F> the frame type; frames are compared with {@code equals}, so pass the method (without the
 *            line) when lines should not split nodes
 */
public final class CallTree<F> {
    private final Node<F> root = new Node<>(null, null);

    /** One node of the tree: the path from the root to it is its identity. */
    public static final class Node<F> {
        private final F frame;
        private final Node<F> parent;
        private final Map<F, Node<F>> children = new LinkedHashMap<>();
        private long self;
        private long total;

        private Node(F frame, Node<F> parent) {
            this.frame = frame;
            this.parent = parent;
        }

        public F frame() {
            return frame;
        }

        public Node<F> parent() {
            return parent;
        }

        public long selfWeight() {
            return self;
        }

        public long totalWeight() {
            return total;
        }

        public Iterable<Node<F>> children() {
            return Collections.unmodifiableCollection(children.values());
        }

        /** The frames from the root (exclusive) to this node, outermost first. */
        public List<F> path() {
            List<F> out = new ArrayList<>();
            for (Node<F> n = this; n.parent != null; n = n.parent) {
                out.add(n.frame);
            }
            Collections.reverse(out);
            return out;
        }
    }

    /**
     * Adds one sample.
     *
     * @param rootFirst the call chain, outermost frame first; an empty chain counts at the root
     * @param weight    the sample's weight (1 for a count, or its nanoseconds); must be &gt;= 0
     */
    public void add(List<F> rootFirst, long weight) {
        if (weight < 0) {
            throw new IllegalArgumentException("negative weight " + weight);
        }
        Node<F> n = root;
        n.total += weight;
        for (F f : rootFirst) {
            Node<F> parent = n;
            n = parent.children.computeIfAbsent(f, k -> new Node<>(k, parent));
            n.total += weight;
        }
        n.self += weight;
    }

    /**
     * The node of a call chain, created with no weight when new: a caller that adds to one chain many
     * times keeps the node and adds with {@link #add(Node, long)}, without looking the chain up again.
     */
    public Node<F> node(List<F> rootFirst) {
        Node<F> n = root;
        for (F f : rootFirst) {
            Node<F> parent = n;
            n = parent.children.computeIfAbsent(f, k -> new Node<>(k, parent));
        }
        return n;
    }

    /** Adds one sample at a node of this tree ({@link #node}): the same as {@link #add(List, long)} with its chain. */
    public void add(Node<F> node, long weight) {
        if (weight < 0) {
            throw new IllegalArgumentException("negative weight " + weight);
        }
        node.self += weight;
        for (Node<F> n = node; n != null; n = n.parent) {
            n.total += weight;
        }
    }

    /** The same for a chain given innermost first, as JFR stacks are. */
    public void addInnermostFirst(List<F> innermostFirst, long weight) {
        List<F> rootFirst = new ArrayList<>(innermostFirst);
        Collections.reverse(rootFirst);
        add(rootFirst, weight);
    }

    public Node<F> root() {
        return root;
    }

    /** Σ of all samples' weights. */
    public long totalWeight() {
        return root.total;
    }

    /**
     * Every edge (non-root node, and the root itself when samples had empty chains) with its self
     * weight, keyed by its path from the root: the edges of the overlap and hot-edge metrics.
     */
    public Map<List<F>, Long> edgeWeights() {
        Map<List<F>, Long> out = new LinkedHashMap<>();
        collect(root, new ArrayList<>(), out);
        return out;
    }

    private static <F> void collect(Node<F> n, List<F> path, Map<List<F>, Long> out) {
        if (n.self > 0) {
            out.put(List.copyOf(path), n.self);
        }
        for (Node<F> c : n.children.values()) {
            path.add(c.frame);
            collect(c, path, out);
            path.remove(path.size() - 1);
        }
    }

    /**
     * The flat profile: per frame, its self weight summed over every context, and its total weight
     * counted once per sample even when the frame recurs in a chain.
     */
    public Map<F, long[]> flat() {
        Map<F, long[]> out = new LinkedHashMap<>();
        flat(root, new LinkedHashMap<>(), out);
        return out;
    }

    private static <F> void flat(Node<F> n, Map<F, Integer> onPath, Map<F, long[]> out) {
        for (Node<F> c : n.children.values()) {
            long[] selfTotal = out.computeIfAbsent(c.frame, k -> new long[2]);
            selfTotal[0] += c.self;
            boolean outermost = !onPath.containsKey(c.frame);
            if (outermost) {
                selfTotal[1] += c.total; // an inner recursive call is inside this total already
            }
            onPath.merge(c.frame, 1, Integer::sum);
            flat(c, onPath, out);
            onPath.computeIfPresent(c.frame, (k, v) -> v == 1 ? null : v - 1);
        }
    }
}
