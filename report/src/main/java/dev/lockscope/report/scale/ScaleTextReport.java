package dev.lockscope.report.scale;

import dev.lockscope.analysis.scale.Layer;
import dev.lockscope.analysis.scale.LayerWalk;
import dev.lockscope.analysis.scale.LockGrowth;
import dev.lockscope.analysis.scale.SweepPoint;
import dev.lockscope.analysis.scale.SweepResult;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The sweep as text: the answer in one sentence, the curve, the growing locks, the layers top-down. */
public final class ScaleTextReport {
    /** Locks shown in the table; the JSON has them all. */
    static final int LOCKS_SHOWN = 8;

    private ScaleTextReport() {
    }

    public static String render(SweepResult r, SweepContext ctx) {
        StringBuilder sb = new StringBuilder();
        sb.append("lockscope scale: ").append(ScaleFormat.headline(r)).append("\n\n");
        sb.append(String.format(Locale.ROOT, "%8s %5s %14s %8s %6s %10s  %s%n", "threads", "cpus", "ops/s", "speedup",
                "ideal", "efficiency", "recording"));
        for (SweepPoint p : r.points()) {
            String mark = r.knee().filter(p::equals).isPresent() ? "  <- knee" : r.peak().filter(p::equals).isPresent() ? "  <- peak" : "";
            String rec = p.recording() == null ? "-" : relative(ctx.outputDir(), p.recording());
            sb.append(String.format(Locale.ROOT, "%8d %5d %14s %8s %6s %10s  %s%s%n", p.threads(), p.cpus(),
                    ScaleFormat.num(p.throughput(), 1), ScaleFormat.num(p.speedup(), 2), ScaleFormat.num(p.idealSpeedup(), 2),
                    ScaleFormat.pct(p.efficiency()), rec, mark));
            for (String f : p.failures()) {
                sb.append(String.format(Locale.ROOT, "%8s %5s   failed run: %s%n", "", "", f));
            }
        }
        r.peak().ifPresent(p -> sb.append(String.format(Locale.ROOT, "peak: %s ops/s at %d threads on %d CPUs%n",
                ScaleFormat.num(p.throughput(), 1), p.threads(), p.cpus())));
        locks(sb, r);
        layers(sb, r.walk());
        for (String note : ctx.notes()) {
            sb.append("note: ").append(note).append('\n');
        }
        return sb.toString();
    }

    private static void locks(StringBuilder sb, SweepResult r) {
        List<SweepPoint> main = r.points().stream().filter(p -> p.cpus() == r.mainCpus()).toList();
        if (r.locks().isEmpty()) {
            sb.append("\nno contended lock was recorded\n");
            return;
        }
        sb.append("\nlocks by growth of their share of thread time")
                .append(r.before().map(b -> " from " + b.threads() + " to " + r.after().get().threads() + " threads").orElse(""))
                .append(":\n");
        sb.append(String.format(Locale.ROOT, "  %2s  %-11s %-26s %-36s %-48s", "#", "layer", "lock", "in", "held by"));
        for (SweepPoint p : main) {
            sb.append(String.format(Locale.ROOT, " %6s", "t=" + p.threads()));
        }
        sb.append(String.format(Locale.ROOT, " %7s%n", "growth"));
        int rank = 0;
        for (LockGrowth l : r.locks().subList(0, Math.min(LOCKS_SHOWN, r.locks().size()))) {
            sb.append(String.format(Locale.ROOT, "  %2d  %-11s %-26s %-36s %-48s", ++rank, l.layer().label(),
                    cut(ScaleFormat.simpleClass(l.className()), 26), cut(ScaleFormat.method(l.waiterMethod()), 36),
                    cut(ScaleFormat.method(l.ownerMethod()) + " (" + l.ownerLayer().label() + ")", 48)));
            for (SweepPoint p : main) {
                sb.append(String.format(Locale.ROOT, " %6s", ScaleFormat.pct(l.shares().get(r.points().indexOf(p)))));
            }
            sb.append(String.format(Locale.ROOT, " %7s%n", ScaleFormat.change(l.growth())));
        }
        if (r.locks().size() > LOCKS_SHOWN) {
            sb.append("  ... ").append(r.locks().size() - LOCKS_SHOWN).append(" more in --format json\n");
        }
    }

    private static void layers(StringBuilder sb, LayerWalk walk) {
        sb.append("\ntop-down by layer (Guerin et al.: fix the first layer with a growing lock; it may hide the ones below):\n");
        Layer first = walk.firstBottleneck().map(LayerWalk.Step::layer).orElse(null);
        for (LayerWalk.Step s : walk.steps()) {
            String what;
            if (s.layer() == Layer.OS) {
                what = "not measured by the sweep (preemption and steal come with bottle graphs)";
            } else if (s.locks().isEmpty()) {
                what = s.layer() == Layer.JVM ? "no growing lock among the JVM's threads (GC and JIT parallelism "
                        + "come with bottle graphs)" : "no growing lock";
            } else {
                LockGrowth l = s.locks().get(0);
                what = String.format(Locale.ROOT, "`%s` in `%s` %s%s", ScaleFormat.simpleClass(l.className()),
                        ScaleFormat.method(l.waiterMethod()), ScaleFormat.change(l.growth()),
                        s.locks().size() > 1 ? " and " + (s.locks().size() - 1) + " more" : "");
            }
            sb.append(String.format(Locale.ROOT, "  %-12s %s%s%n", s.layer().label() + ":", what,
                    s.layer() == first ? "   <- start here" : ""));
        }
    }

    static String relative(Path dir, Path file) {
        if (dir == null) {
            return file.toString();
        }
        try {
            return dir.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize()).toString();
        } catch (IllegalArgumentException otherRoot) {
            return file.toString();
        }
    }

    private static String cut(String s, int width) {
        return s.length() <= width ? s : s.substring(0, width - 1) + "~";
    }
}
