package dev.lockscope.report.bottle;

import dev.lockscope.analysis.bottle.BottleGraph;
import dev.lockscope.analysis.bottle.Box;
import dev.lockscope.analysis.bottle.GroupBox;
import dev.lockscope.analysis.bottle.NeckExplainer;
import dev.lockscope.analysis.bottle.ThreadBox;

import java.util.List;
import java.util.Locale;

/**
 * Text table of a bottle graph: one row per box from the top of the bottle (narrowest) down, with
 * share S, parallelism P, running time A, S as % of the total height, and preemption apart.
 */
public final class BottleTextReport {
    private BottleTextReport() {
    }

    public static String render(List<BottleGraph> graphs, boolean groups) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < graphs.size(); i++) {
            if (graphs.size() > 1) {
                BottleGraph g = graphs.get(i);
                b.append(String.format(Locale.ROOT, "%n== slice %d: %s .. %s ms ==%n", i + 1,
                        ms(g.fromNanos() - graphs.get(0).fromNanos()), ms(g.toNanos() - graphs.get(0).fromNanos())));
            }
            b.append(render(graphs.get(i), groups));
        }
        return b.toString();
    }

    public static String render(BottleGraph g, boolean groups) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Bottle graph (%s): wall %s ms, busy %s ms (= total height), %d CPUs%n",
                g.source(), ms(g.wallNanos()), ms(g.busyNanos()), g.cpus()));
        if (g.approximateReason() != null) {
            b.append("APPROXIMATE: ").append(g.approximateReason()).append('\n');
        }
        String warning = g.machineBoundWarning();
        if (warning != null) {
            b.append("WARNING: ").append(warning).append('\n');
        }
        List<? extends Box> boxes = groups ? g.groups() : g.threads();
        double total = g.busyNanos() == 0 ? 1 : g.busyNanos();
        String first = groups ? "group" : "thread";
        boolean steal = g.hasSteal();
        b.append(String.format(Locale.ROOT, "%-24s %8s %-16s %12s %8s %12s %7s %12s%s%n", first, "os tid",
                groups ? "threads" : "group", "share ms", "P", "running ms", "% total", "preempted ms",
                steal ? String.format(Locale.ROOT, " %10s", "steal ms") : ""));
        for (int i = boxes.size() - 1; i >= 0; i--) { // top of the bottle first
            Box x = boxes.get(i);
            // a box of virtual threads has no OS thread: it says how many virtual threads it holds
            String tid = x instanceof ThreadBox t ? (t.isVirtual() ? t.virtualThreads() + " vt" : Integer.toString(t.osTid())) : "";
            String group = x instanceof ThreadBox t ? t.group() : Integer.toString(((GroupBox) x).threads());
            double s = x.share().doubleValue();
            b.append(String.format(Locale.ROOT, "%-24s %8s %-16s %12s %8.3f %12s %6.1f%% %12s%s%n",
                    cut(x.name(), 24), tid, cut(group, 16), ms(s), x.parallelism().doubleValue(),
                    ms(x.running().doubleValue()), 100 * s / total, ms(x.preemptedNanos()),
                    steal ? String.format(Locale.ROOT, " %10s", ms(g.stealNanos(x))) : ""));
        }
        if (steal) {
            b.append("steal ms: the thread's share of the machine's steal time (the hypervisor ran something else while "
                    + "it seemed to run), counted in its running time\n");
        }
        return b.toString();
    }

    /** "The neck explained": per neck thread, what the other application threads did meanwhile. */
    public static String renderNecks(List<NeckExplainer.Neck> necks) {
        StringBuilder b = new StringBuilder();
        for (NeckExplainer.Neck n : necks) {
            b.append(String.format(Locale.ROOT, "%nNeck: %s (os tid %d, P=%.3f, share %s ms) ran %s ms with no other "
                    + "application thread running. Meanwhile the other application threads were:%n",
                    n.thread().name(), n.thread().osTid(), n.thread().parallelism().doubleValue(),
                    ms(n.thread().share().doubleValue()), ms(n.aloneNanos())));
            for (NeckExplainer.Activity a : n.others()) {
                b.append(String.format(Locale.ROOT, "  %10s ms  %-30s %s%s%n", ms(a.nanos()), a.state(),
                        a.detail().isEmpty() ? "" : a.detail() + " ", "(" + a.threads()
                                + (a.threads() == 1 ? " thread)" : " threads)")));
            }
        }
        return b.toString();
    }

    static String ms(double nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    private static String cut(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }
}
