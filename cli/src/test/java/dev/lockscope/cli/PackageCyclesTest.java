package dev.lockscope.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No package of lockscope depends, through others, on itself: the package graph of the compiled classes of
 * this module and the modules it builds on, as jdeps (run in this JVM) reads it, has no cycle.
 * A cycle found is printed and fails the build.
 */
class PackageCyclesTest {
    /** The modules cli is built on, and cli: their target/classes are compiled before these tests run. */
    private static final List<String> MODULES = List.of("core", "sched", "agent-boot", "agent", "demo", "analysis",
            "report", "cli", "locks");
    private static final Pattern EDGE = Pattern.compile("^\\s+(dev\\.lockscope\\.\\S+)\\s+->\\s+(dev\\.lockscope\\.\\S+)\\s", Pattern.MULTILINE);

    @Test
    void noPackageCycles() {
        List<List<String>> cycles = cycles(packageGraph());
        cycles.forEach(c -> System.out.println("package cycle: " + String.join(" <-> ", c)));
        assertThat(cycles).as("package cycles").isEmpty();
    }

    /** The checker itself: a graph with a cycle, one without. */
    @Test
    void findsACycleAndOnlyACycle() {
        Map<String, Set<String>> g = new TreeMap<>();
        g.put("a", new TreeSet<>(List.of("b")));
        g.put("b", new TreeSet<>(List.of("c")));
        g.put("c", new TreeSet<>(List.of("a", "d")));
        g.put("d", new TreeSet<>());
        assertThat(cycles(g)).containsExactly(List.of("a", "b", "c"));
        g.get("c").remove("a");
        assertThat(cycles(g)).isEmpty();
    }

    @Test
    void jdepsSeesThePackagesOfEveryModule() {
        Map<String, Set<String>> g = packageGraph();
        assertThat(g).containsKeys("dev.lockscope.core", "dev.lockscope.analysis", "dev.lockscope.report", "dev.lockscope.cli");
        assertThat(g.get("dev.lockscope.cli")).contains("dev.lockscope.report");
    }

    /** Package to the lockscope packages its classes refer to (no self edges). */
    private static Map<String, Set<String>> packageGraph() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("this JDK has no jdeps"));
        List<String> args = new ArrayList<>(List.of("-verbose:package", "-filter:none", "-e", "dev\\.lockscope\\..*"));
        for (String m : MODULES) {
            Path classes = Path.of("..", m, "target", "classes");
            if (Files.isDirectory(classes.resolve("dev"))) {
                args.add(classes.toString());
            }
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        assertThat(rc).as("jdeps %s: %s", args, err).isZero();
        Map<String, Set<String>> graph = new TreeMap<>();
        Matcher m = EDGE.matcher(out.toString());
        while (m.find()) {
            graph.computeIfAbsent(m.group(1), k -> new TreeSet<>());
            graph.computeIfAbsent(m.group(2), k -> new TreeSet<>());
            if (!m.group(1).equals(m.group(2))) {
                graph.get(m.group(1)).add(m.group(2));
            }
        }
        return graph;
    }

    /** The strongly connected components of more than one package (Tarjan), each sorted, in name order. */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new java.util.HashSet<>();
        List<List<String>> out = new ArrayList<>();
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, out);
            }
        }
        out.sort(java.util.Comparator.comparing(c -> c.get(0)));
        return out;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index, Map<String, Integer> low,
                                Deque<String> stack, Set<String> onStack, List<List<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                component.sort(null);
                out.add(component);
            }
        }
    }
}
