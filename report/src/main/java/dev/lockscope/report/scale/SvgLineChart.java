package dev.lockscope.report.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small self-contained SVG line chart (no scripts, no fonts to fetch): linear axes, one polyline
 * per series, optional marked points. Used for the speedup curve and for the lock shares.
 */
final class SvgLineChart {
    record Series(String label, String color, boolean dashed, List<double[]> points) {
    }

    record Mark(double x, double y, String label, String color) {
    }

    private static final int W = 720, H = 300, LEFT = 56, RIGHT = 230, TOP = 16, BOTTOM = 40;
    private final String xTitle;
    private final String yTitle;
    private final boolean yPercent;
    private final List<Series> series = new ArrayList<>();
    private final List<Mark> marks = new ArrayList<>();

    SvgLineChart(String xTitle, String yTitle, boolean yPercent) {
        this.xTitle = xTitle;
        this.yTitle = yTitle;
        this.yPercent = yPercent;
    }

    SvgLineChart series(String label, String color, boolean dashed, List<double[]> points) {
        List<double[]> finite = points.stream().filter(p -> Double.isFinite(p[0]) && Double.isFinite(p[1])).toList();
        series.add(new Series(label, color, dashed, finite));
        return this;
    }

    SvgLineChart mark(double x, double y, String label, String color) {
        if (Double.isFinite(x) && Double.isFinite(y)) {
            marks.add(new Mark(x, y, label, color));
        }
        return this;
    }

    String render() {
        double xMax = 1, yMax = yPercent ? 0.1 : 1;
        for (Series s : series) {
            for (double[] p : s.points()) {
                xMax = Math.max(xMax, p[0]);
                yMax = Math.max(yMax, p[1]);
            }
        }
        yMax = niceCeiling(yMax);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", W, H, W, H));
        double plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
        // axes and ticks
        sb.append(line(LEFT, TOP, LEFT, TOP + plotH, "#333")).append(line(LEFT, TOP + plotH, LEFT + plotW, TOP + plotH, "#333"));
        for (int i = 0; i <= 4; i++) {
            double v = yMax * i / 4;
            double y = TOP + plotH - plotH * i / 4;
            sb.append(line(LEFT - 4, y, LEFT + plotW, y, "#ddd"));
            sb.append(text(LEFT - 6, y + 4, yPercent ? ScaleFormat.pct(v) : ScaleFormat.num(v, v < 10 ? 1 : 0), "end"));
        }
        for (double x : xTicks()) {
            double px = LEFT + plotW * x / xMax;
            sb.append(line(px, TOP + plotH, px, TOP + plotH + 4, "#333"));
            sb.append(text(px, TOP + plotH + 16, ScaleFormat.num(x, 0), "middle"));
        }
        sb.append(text(LEFT + plotW / 2, H - 6, xTitle, "middle"));
        sb.append(String.format(Locale.ROOT, "<text x=\"12\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 12 %.1f)\">%s</text>%n",
                TOP + plotH / 2, TOP + plotH / 2, Html.escape(yTitle)));
        int legend = 0;
        for (Series s : series) {
            StringBuilder pts = new StringBuilder();
            for (double[] p : s.points()) {
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", LEFT + plotW * p[0] / xMax, TOP + plotH - plotH * Math.min(p[1], yMax) / yMax));
            }
            sb.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"%s\"/>%n",
                    s.color(), s.dashed() ? " stroke-dasharray=\"5,4\"" : "", pts.toString().trim()));
            for (double[] p : s.points()) {
                sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>%n",
                        LEFT + plotW * p[0] / xMax, TOP + plotH - plotH * Math.min(p[1], yMax) / yMax, s.color()));
            }
            double ly = TOP + 10 + 16 * legend++;
            sb.append(line(W - RIGHT + 10, ly - 4, W - RIGHT + 30, ly - 4, s.color()));
            sb.append(text(W - RIGHT + 34, ly, s.label(), "start"));
        }
        for (int k = 0; k < marks.size(); k++) {
            Mark m = marks.get(k);
            double px = LEFT + plotW * m.x() / xMax, py = TOP + plotH - plotH * Math.min(m.y(), yMax) / yMax;
            // marks on the same point (a knee that is also the peak) get their labels one under the other
            long before = marks.subList(0, k).stream().filter(o -> o.x() == m.x() && o.y() == m.y()).count();
            double labelY = py - 8 + 14 * before;
            sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    px, py, m.color()));
            sb.append(text(px + 8, labelY, m.label(), "start"));
        }
        return sb.append("</svg>\n").toString();
    }

    private List<Double> xTicks() {
        return series.stream().flatMap(s -> s.points().stream()).map(p -> p[0]).distinct().sorted().toList();
    }

    private static double niceCeiling(double v) {
        double mag = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 2, 4, 8, 10}) { // quarters of these read well
            if (step * mag >= v) {
                return step * mag;
            }
        }
        return 10 * mag;
    }

    private static String line(double x1, double y1, double x2, double y2, String color) {
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n", x1, y1, x2, y2, color);
    }

    private static String text(double x, double y, String s, String anchor) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>%n", x, y, anchor, Html.escape(s));
    }
}
