package dev.lockscope.analysis.bottle;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts threads into groups by name. Order: user groups (first regex that finds a match), then GC,
 * JIT and other JVM threads by HotSpot's thread names, then thread pools. Names may be Linux comm
 * names, cut to 15 characters ("C2 CompilerThre", "ForkJoinPool.co"), so patterns match prefixes.
 */
public final class ThreadClassifier {
    private static final Pattern GC = Pattern.compile(
            "^(GC Thread#|G1 |GC |Z[A-Z][A-Za-z]*(#\\d+)?$|ZWorker|Shenandoah|Gang worker|Parallel GC|Concurrent Mark)");
    private static final Pattern JIT = Pattern.compile("^(C1 Compiler|C2 Compiler|JVMCI|Sweeper thread|CodeCache)");
    private static final Pattern JVM = Pattern.compile("^(VM Thread|VM Periodic|Service Thread|Signal Dispatch|"
            + "Finalizer|Reference Handl|Common-Cleaner|Monitor Deflati|Notification Th|Attach Listener|JFR |"
            + "process reaper|Thread-JFR|JDK Flight|lockscope-)");
    /** Standard pool names; group 1 is the pool. */
    private static final List<Pattern> POOLS = List.of(
            Pattern.compile("^(pool-\\d+)-thread"),
            Pattern.compile("^(ForkJoinPool-\\d+)-"),
            Pattern.compile("^(ForkJoinPool\\.co)"), // ForkJoinPool.commonPool-worker-N, cut by comm
            Pattern.compile("^(ForkJoinPool\\.commonPool)-worker"));
    /** A name ending in digits, for pools named by the user ("worker-1", "io#2"). */
    private static final Pattern NUMBERED = Pattern.compile("^(.*?)[-_#. ]?\\d+$");

    private final Map<String, Pattern> userGroups;

    /** @param userGroups group name to regex, tried in order before the built-in rules */
    public ThreadClassifier(Map<String, Pattern> userGroups) {
        this.userGroups = new LinkedHashMap<>(userGroups);
    }

    public static ThreadClassifier defaults() {
        return new ThreadClassifier(Map.of());
    }

    /** Parses {@code NAME=REGEX}; throws IllegalArgumentException with a one-line message. */
    public static Map.Entry<String, Pattern> parseUserGroup(String spec) {
        int eq = spec.indexOf('=');
        if (eq <= 0 || eq == spec.length() - 1) {
            throw new IllegalArgumentException("group '" + spec + "' is not NAME=REGEX");
        }
        try {
            return Map.entry(spec.substring(0, eq), Pattern.compile(spec.substring(eq + 1)));
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new IllegalArgumentException("group '" + spec + "': bad regex: " + e.getDescription());
        }
    }

    /** A thread's group and kind. */
    public record Assignment(String group, ThreadKind kind) {
    }

    /**
     * Assigns every thread. {@code launcherTid} (the process id) is the java launcher's primordial
     * thread, which only waits for the VM. Application threads whose names differ only in a
     * trailing number form a pool group when there are at least two of them.
     */
    public Map<Integer, Assignment> assign(Map<Integer, String> names, long launcherTid) {
        Map<Integer, Assignment> out = new HashMap<>();
        Map<Integer, String> stems = new HashMap<>();
        Map<String, Integer> stemCount = new HashMap<>();
        for (Map.Entry<Integer, String> e : names.entrySet()) {
            int tid = e.getKey();
            String name = e.getValue();
            Assignment a = fixed(tid, name, launcherTid);
            if (a != null) {
                out.put(tid, a);
                continue;
            }
            Matcher m = NUMBERED.matcher(name);
            if (m.matches() && !m.group(1).isEmpty()) {
                stems.put(tid, m.group(1) + "*");
                stemCount.merge(m.group(1) + "*", 1, Integer::sum);
            }
        }
        for (Map.Entry<Integer, String> e : names.entrySet()) {
            int tid = e.getKey();
            if (out.containsKey(tid)) {
                continue;
            }
            String stem = stems.get(tid);
            boolean pool = stem != null && stemCount.get(stem) >= 2;
            out.put(tid, new Assignment(pool ? stem : "app", ThreadKind.APP));
        }
        return out;
    }

    /**
     * The group of a box of virtual threads named by their pool: the first user group whose regex finds
     * a match in the pool's name, else the pool itself.
     */
    public String groupOfVirtual(String pool) {
        for (Map.Entry<String, Pattern> g : userGroups.entrySet()) {
            if (g.getValue().matcher(pool).find()) {
                return g.getKey();
            }
        }
        return pool;
    }

    private Assignment fixed(int tid, String name, long launcherTid) {
        for (Map.Entry<String, Pattern> g : userGroups.entrySet()) {
            if (g.getValue().matcher(name).find()) {
                return new Assignment(g.getKey(), ThreadKind.APP);
            }
        }
        if (tid == launcherTid) {
            return new Assignment("JVM", ThreadKind.JVM);
        }
        if (GC.matcher(name).find()) {
            return new Assignment("GC", ThreadKind.GC);
        }
        if (JIT.matcher(name).find()) {
            return new Assignment("JIT", ThreadKind.JIT);
        }
        if (JVM.matcher(name).find()) {
            return new Assignment("JVM", ThreadKind.JVM);
        }
        for (Pattern p : POOLS) {
            Matcher m = p.matcher(name);
            if (m.find()) {
                String pool = m.group(1).equals("ForkJoinPool.co") ? "ForkJoinPool.commonPool" : m.group(1);
                return new Assignment(pool, ThreadKind.APP);
            }
        }
        return null;
    }
}
