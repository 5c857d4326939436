package dev.lockscope.report.bottle;

import dev.lockscope.analysis.bottle.BottleGraph;
import dev.lockscope.analysis.bottle.Box;
import dev.lockscope.analysis.bottle.ThreadKind;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * SVG bottle graph drawn as in Du Bois et al. §2 (Fig. 1): each box is centred on a vertical
 * parallelism-zero axis and stretches P to both sides; height is the share S; boxes are stacked
 * widest at the bottom, so the neck (narrow, tall boxes) is at the top. GC boxes are brown and
 * JIT boxes dark green, as in the paper's figures; other JVM threads are grey. Several graphs
 * (time slices) are drawn side by side with a common time scale.
 */
public final class BottleSvg {
    private static final int PANEL_W = 440;
    private static final int PANEL_H = 560;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 56;
    private static final int BOTTOM = 44;
    private static final String[] APP_COLOURS = {"#1f77b4", "#ff7f0e", "#9467bd", "#17becf", "#d62728",
        "#bcbd22", "#e377c2", "#393b79", "#ad494a", "#6b6ecf"};

    private BottleSvg() {
    }

    public static String render(List<BottleGraph> graphs, boolean groups) {
        double maxHeight = 0;
        double maxP = 1;
        for (BottleGraph g : graphs) {
            double h = 0;
            for (Box b : boxes(g, groups)) {
                h += b.share().doubleValue();
                maxP = Math.max(maxP, b.parallelism().doubleValue());
            }
            maxHeight = Math.max(maxHeight, h);
        }
        int axisMax = (int) Math.ceil(maxP - 1e-9);
        int width = PANEL_W * graphs.size();
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", width, PANEL_H, width,
                PANEL_H));
        s.append("<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        Map<String, String> colours = new HashMap<>();
        for (int i = 0; i < graphs.size(); i++) {
            String title = graphs.size() == 1 ? "Bottle graph" : String.format(Locale.ROOT,
                    "slice %d: %s–%s ms", i + 1, ms(graphs.get(i).fromNanos() - graphs.get(0).fromNanos()),
                    ms(graphs.get(i).toNanos() - graphs.get(0).fromNanos()));
            panel(s, graphs.get(i), groups, i * PANEL_W, title, maxHeight, axisMax, colours);
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static List<? extends Box> boxes(BottleGraph g, boolean groups) {
        return groups ? g.groups() : g.threads();
    }

    private static void panel(StringBuilder s, BottleGraph g, boolean groups, int x0, String title,
                              double maxHeight, int axisMax, Map<String, String> colours) {
        double pw = PANEL_W - LEFT - RIGHT;
        double ph = PANEL_H - TOP - BOTTOM;
        double cx = x0 + LEFT + pw / 2;
        double xs = (pw / 2) / (axisMax + 0.2); // a little air beside the widest box
        double ys = maxHeight > 0 ? ph / maxHeight : 0;
        double base = TOP + ph;
        s.append(String.format(Locale.ROOT, "<g class=\"bottle\"><text x=\"%.1f\" y=\"18\" font-size=\"14\" "
                + "font-weight=\"bold\">%s</text>\n", x0 + LEFT * 1.0, esc(title)));
        String note = g.approximateReason() != null ? "approximate: " + g.approximateReason() : null;
        String warning = g.machineBoundWarning();
        int line = 32;
        for (String n : new String[] {note, warning}) {
            if (n != null) {
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" fill=\"#b00\">%s"
                        + "</text>\n", x0 + 4.0, line, esc(n.length() > 90 ? n.substring(0, 89) + "…" : n)));
                line += 11;
            }
        }
        // axes: parallelism (symmetric) along the bottom, share (time) on the left
        s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n",
                x0 + LEFT * 1.0, base, x0 + LEFT + pw, base));
        for (int k = -axisMax; k <= axisMax; k++) {
            double x = cx + k * xs;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>"
                    + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", x, base, x, base + 4, x,
                    base + 16, Math.abs(k)));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">parallelism</text>\n",
                cx, base + 32));
        s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n",
                x0 + LEFT * 1.0, TOP * 1.0, x0 + LEFT * 1.0, base));
        double step = niceStep(maxHeight / 5);
        for (double v = 0; maxHeight > 0 && v <= maxHeight * 1.0001; v += step) {
            double y = base - v * ys;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>"
                    + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", x0 + LEFT - 4.0, y,
                    x0 + LEFT * 1.0, y, x0 + LEFT - 6.0, y + 4, ms(v)));
        }
        s.append(String.format(Locale.ROOT, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" "
                + "text-anchor=\"middle\">share (ms)</text>\n", x0 + 14.0, TOP + ph / 2));
        s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
                + "stroke-dasharray=\"3,3\"/>\n", cx, TOP * 1.0, cx, base));
        double y = base;
        for (Box b : boxes(g, groups)) { // widest first: bottom first
            double h = b.share().doubleValue() * ys;
            double half = b.parallelism().doubleValue() * xs;
            y -= h;
            String fill = colour(b, colours);
            s.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                    + "fill=\"%s\" stroke=\"#222\" stroke-width=\"0.5\"><title>%s</title></rect>\n",
                    cx - half, y, 2 * half, h, fill, esc(String.format(Locale.ROOT,
                            "%s: share %s ms, parallelism %.3f, running %s ms", b.name(),
                            ms(b.share().doubleValue()), b.parallelism().doubleValue(),
                            ms(b.running().doubleValue())) + (g.hasSteal() ? ", of which steal " + ms(g.stealNanos(b)) + " ms" : ""))));
            if (h >= 10) {
                String label = String.format(Locale.ROOT, "%s  P=%.2f", b.name(), b.parallelism().doubleValue());
                double textWidth = label.length() * 6.0;
                boolean inside = textWidth < 2 * half - 4;
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">%s"
                        + "</text>\n", inside ? cx : cx + half + 3, y + h / 2 + 4, inside ? "middle" : "start",
                        inside ? "#fff" : "#000", esc(label)));
            }
        }
        s.append("</g>\n");
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}: readable tick spacing. */
    static double niceStep(double raw) {
        if (raw <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String colour(Box b, Map<String, String> colours) {
        if (b.kind() == ThreadKind.GC) {
            return "#8c564b";
        }
        if (b.kind() == ThreadKind.JIT) {
            return "#1b5e20";
        }
        if (b.kind() == ThreadKind.JVM) {
            return "#9e9e9e";
        }
        return colours.computeIfAbsent(b.name(), k -> APP_COLOURS[colours.size() % APP_COLOURS.length]);
    }

    static String ms(double nanos) {
        if (nanos == 0) {
            return "0";
        }
        return String.format(Locale.ROOT, nanos >= 1e7 ? "%.0f" : "%.2f", nanos / 1e6);
    }

    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> {
                    if (c >= 0x20 || c == '\t' || c == '\n') {
                        b.append(c); // other control characters are not allowed in XML 1.0
                    }
                }
            }
        }
        return b.toString();
    }
}
