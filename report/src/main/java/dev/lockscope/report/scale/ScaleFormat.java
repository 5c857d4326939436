package dev.lockscope.report.scale;

import dev.lockscope.core.Frame;

import dev.lockscope.analysis.scale.LockGrowth;
import dev.lockscope.analysis.scale.SweepPoint;
import dev.lockscope.analysis.scale.SweepResult;

import java.util.Locale;
import java.util.Optional;

/** Wording shared by the text and HTML pages, so both say the same thing. */
final class ScaleFormat {
    private ScaleFormat() {
    }

    /** {@code java.util.Hashtable.get:385} → {@code Hashtable.get}. */
    static String method(String frame) {
        Frame f = Frame.parse(frame);
        return f.className().isEmpty() ? f.method() : f.classAndMethod();
    }

    /** {@code java.util.concurrent.locks.ReentrantLock$NonfairSync} → {@code ReentrantLock$NonfairSync}. */
    static String simpleClass(String className) {
        return Frame.simpleName(className);
    }

    static String pct(double fraction) {
        return Double.isNaN(fraction) ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
    }

    /** With one decimal, where a rounded whole percent could read "80%, below 80%". */
    static String pct1(double fraction) {
        return Double.isNaN(fraction) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    /** A signed change in percentage points; "+0%" rather than "-0%" for a tiny decrease. */
    static String change(double fraction) {
        return String.format(Locale.ROOT, "%+.0f%%", Math.abs(fraction) < 0.005 ? 0.0 : 100 * fraction);
    }

    static String num(double v, int decimals) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    static String threads(SweepPoint p, SweepResult r) {
        return p.threads() + " threads" + (seriesCount(r) > 1 ? " on " + p.cpus() + " CPUs" : "");
    }

    private static long seriesCount(SweepResult r) {
        return r.points().stream().mapToInt(SweepPoint::cpus).distinct().count();
    }

    /** The one-sentence answer: where throughput stops scaling and which lock grows above it. */
    static String headline(SweepResult r) {
        StringBuilder sb = new StringBuilder();
        Optional<SweepPoint> knee = r.knee();
        if (r.after().isEmpty()) {
            return "no point of the sweep succeeded: nothing to compare";
        }
        if (knee.isPresent()) {
            sb.append(String.format(Locale.ROOT, "throughput stops scaling at %s (efficiency %s, below %s)",
                    threads(knee.get(), r), pct1(knee.get().efficiency()), pct(r.threshold())));
        } else {
            sb.append(String.format(Locale.ROOT, "throughput scales up to %s (efficiency at least %s at every point)",
                    threads(r.after().get(), r), pct(r.threshold())));
        }
        Optional<LockGrowth> top = r.locks().stream().findFirst().filter(l -> l.growth() > 0);
        if (top.isPresent()) {
            LockGrowth l = top.get();
            sb.append(String.format(Locale.ROOT, "; from %d to %d threads, `%s` in `%s` (%s layer, held by %s code `%s`) "
                            + "grows from %s to %s of thread time",
                    r.before().get().threads(), r.after().get().threads(), simpleClass(l.className()),
                    method(l.waiterMethod()), l.layer().label(), l.ownerLayer().label(), method(l.ownerMethod()),
                    pct(l.shareBefore()), pct(l.shareAfter())));
        } else {
            sb.append("; no lock's wait grows with the thread count");
        }
        return sb.toString();
    }
}
