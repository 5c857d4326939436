package dev.lockscope.report.scale;

import dev.lockscope.analysis.scale.Layer;
import dev.lockscope.analysis.scale.LayerWalk;
import dev.lockscope.analysis.scale.LockGrowth;
import dev.lockscope.analysis.scale.SweepPoint;
import dev.lockscope.analysis.scale.SweepResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sweep as one self-contained HTML page (inline SVG and CSS, nothing fetched): the answer, the
 * speedup curve against the ideal, the points with links to their recordings, the growth of the
 * top locks, and the layers top-down.
 */
public final class ScaleHtmlReport {
    /** Locks drawn in the growth chart; the table lists them all. */
    static final int LOCKS_CHARTED = 5;
    private static final String[] COLORS = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"};

    private ScaleHtmlReport() {
    }

    public static String render(SweepResult r, SweepContext ctx) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>lockscope scale</title>\n")
                .append("<style>body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse}"
                        + "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td.l,th.l{text-align:left}"
                        + "code{background:#f4f4f4}.knee{background:#fde0dc}.fail{color:#b00}.start{font-weight:bold}"
                        + ".note{color:#a60}</style>\n</head><body>\n");
        sb.append("<h1>Scalability sweep</h1>\n<p><code>").append(Html.escape(String.join(" ", ctx.command())))
                .append("</code></p>\n");
        sb.append("<p><b>").append(Html.escape(ScaleFormat.headline(r)).replaceAll("`([^`]*)`", "<code>$1</code>"))
                .append("</b></p>\n");
        for (String note : ctx.notes()) {
            sb.append("<p class=\"note\">").append(Html.escape(note)).append("</p>\n");
        }
        sb.append("<h2>Speedup against the ideal</h2>\n").append(speedupChart(r));
        points(sb, r, ctx.outputDir());
        sb.append("<h2>Locks by growth of their share of thread time</h2>\n");
        if (r.locks().isEmpty()) {
            sb.append("<p>No contended lock was recorded.</p>\n");
        } else {
            sb.append(lockChart(r));
            locks(sb, r);
        }
        layers(sb, r.walk());
        return sb.append("</body></html>\n").toString();
    }

    private static String speedupChart(SweepResult r) {
        SvgLineChart chart = new SvgLineChart("threads", "speedup", false);
        Map<Integer, List<SweepPoint>> series = new TreeMap<>();
        r.points().forEach(p -> series.computeIfAbsent(p.cpus(), c -> new ArrayList<>()).add(p));
        List<double[]> ideal = r.points().stream().filter(p -> p.cpus() == r.mainCpus())
                .map(p -> new double[] {p.threads(), p.idealSpeedup()}).toList();
        chart.series("ideal", "#999", true, ideal);
        int i = 0;
        for (Map.Entry<Integer, List<SweepPoint>> e : series.entrySet()) {
            chart.series(e.getKey() + " CPUs", COLORS[1 + i++ % (COLORS.length - 1)], false,
                    e.getValue().stream().map(p -> new double[] {p.threads(), p.speedup()}).toList());
        }
        r.knee().ifPresent(k -> chart.mark(k.threads(), k.speedup(), "knee", "#d62728"));
        r.peak().ifPresent(p -> chart.mark(p.threads(), p.speedup(), "peak", "#2ca02c"));
        return chart.render();
    }

    private static String lockChart(SweepResult r) {
        SvgLineChart chart = new SvgLineChart("threads (" + r.mainCpus() + " CPUs)", "share of thread time waiting", true);
        List<SweepPoint> points = r.points();
        int n = Math.min(LOCKS_CHARTED, r.locks().size());
        for (int k = 0; k < n; k++) {
            LockGrowth l = r.locks().get(k);
            List<double[]> xy = new ArrayList<>();
            for (int i = 0; i < points.size(); i++) {
                if (points.get(i).cpus() == r.mainCpus() && points.get(i).ok()) {
                    xy.add(new double[] {points.get(i).threads(), l.shares().get(i)});
                }
            }
            chart.series("#" + (k + 1) + " " + ScaleFormat.simpleClass(l.className()), COLORS[k % COLORS.length], false, xy);
        }
        return chart.render();
    }

    private static void points(StringBuilder sb, SweepResult r, Path dir) {
        sb.append("<h2>Points</h2>\n<table><tr><th>threads</th><th>CPUs</th><th>ops/s</th><th>speedup</th><th>ideal</th>"
                + "<th>efficiency</th><th class=\"l\">recording</th></tr>\n");
        for (SweepPoint p : r.points()) {
            boolean knee = r.knee().filter(p::equals).isPresent();
            sb.append(knee ? "<tr class=\"knee\">" : "<tr>");
            sb.append(String.format(Locale.ROOT, "<td>%d</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"l\">",
                    p.threads(), p.cpus(), ScaleFormat.num(p.throughput(), 1), ScaleFormat.num(p.speedup(), 2),
                    ScaleFormat.num(p.idealSpeedup(), 2), ScaleFormat.pct(p.efficiency())));
            for (Path rec : p.recordings()) {
                String rel = ScaleTextReport.relative(dir, rec);
                sb.append("<a href=\"").append(Html.escape(rel)).append("\" title=\"open in JDK Mission Control, or: lockscope report ")
                        .append(Html.escape(rel)).append("\">").append(Html.escape(rel)).append("</a> ");
            }
            for (String f : p.failures()) {
                sb.append("<span class=\"fail\">failed: ").append(Html.escape(f)).append("</span> ");
            }
            sb.append(knee ? " &larr; knee" : "").append("</td></tr>\n");
        }
        sb.append("</table>\n");
    }

    private static void locks(StringBuilder sb, SweepResult r) {
        sb.append("<table><tr><th>#</th><th class=\"l\">layer</th><th class=\"l\">lock</th><th class=\"l\">in</th>"
                + "<th class=\"l\">held by</th>");
        List<Integer> main = new ArrayList<>();
        for (int i = 0; i < r.points().size(); i++) {
            if (r.points().get(i).cpus() == r.mainCpus()) {
                main.add(i);
                sb.append("<th>t=").append(r.points().get(i).threads()).append("</th>");
            }
        }
        sb.append("<th>growth</th></tr>\n");
        int rank = 0;
        for (LockGrowth l : r.locks()) {
            sb.append(String.format(Locale.ROOT, "<tr><td>%d</td><td class=\"l\">%s</td><td class=\"l\"><code>%s</code></td>"
                            + "<td class=\"l\" title=\"%s\"><code>%s</code></td><td class=\"l\" title=\"%s\"><code>%s</code> (%s)</td>",
                    ++rank, l.layer().label(), Html.escape(ScaleFormat.simpleClass(l.className())),
                    Html.escape(String.join("\n", l.waiterFrames())), Html.escape(ScaleFormat.method(l.waiterMethod())),
                    Html.escape(String.join("\n", l.ownerFrames()) + "\n(owner from " + l.ownerSource() + ")"),
                    Html.escape(ScaleFormat.method(l.ownerMethod())), l.ownerLayer().label()));
            for (int i : main) {
                sb.append("<td>").append(ScaleFormat.pct(l.shares().get(i))).append("</td>");
            }
            sb.append("<td>").append(ScaleFormat.change(l.growth())).append("</td></tr>\n");
        }
        sb.append("</table>\n");
    }

    private static void layers(StringBuilder sb, LayerWalk walk) {
        sb.append("<h2>Top-down, layer by layer</h2>\n<p>Guerin et al.'s method: fix the first layer with a growing lock; "
                + "it may hide bottlenecks in the layers below.</p>\n<ol>\n");
        Layer first = walk.firstBottleneck().map(LayerWalk.Step::layer).orElse(null);
        for (LayerWalk.Step s : walk.steps()) {
            sb.append(s.layer() == first ? "<li class=\"start\">" : "<li>").append(Html.escape(s.layer().label()))
                    .append(" (").append(Html.escape(s.layer().description())).append("): ");
            if (s.layer() == Layer.OS) {
                sb.append("not measured by the sweep (preemption and steal come with bottle graphs)");
            } else if (s.locks().isEmpty()) {
                sb.append(s.layer() == Layer.JVM ? "no growing lock among the JVM's threads (GC and JIT parallelism "
                        + "come with bottle graphs)" : "no growing lock");
            } else {
                List<String> names = s.locks().stream().map(l -> "<code>" + Html.escape(ScaleFormat.simpleClass(l.className()))
                        + "</code> in <code>" + Html.escape(ScaleFormat.method(l.waiterMethod())) + "</code> "
                        + ScaleFormat.change(l.growth())).toList();
                sb.append(String.join(", ", names));
            }
            sb.append(s.layer() == first ? " &larr; start here" : "").append("</li>\n");
        }
        sb.append("</ol>\n");
    }
}
