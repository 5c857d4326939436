package dev.lockscope.analysis.scale;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Guerin et al.'s method (§III) over measured runs: throughput at rising thread
 * counts against the linear ideal, the knee and the peak, and the locks whose share of thread time
 * grows across the knee, walked top-down by layer. A pure function of its input; it never prints.
 *
 * <p>Formulas, per CPU series, n₀ its fewest threads with a successful run:
 * <ul>
 *   <li>Speedup(n) = X(n) / X(n₀), X the mean throughput of the point's successful runs;</li>
 *   <li>Ideal(n) = n / n₀ ("linear throughput increase");</li>
 *   <li>Efficiency(n) = Speedup(n) / Ideal(n) = (X(n)/n) / (X(n₀)/n₀);</li>
 *   <li>knee = the first point with Efficiency &lt; θ (default 0.8); peak = argmax X;</li>
 *   <li>Share(lock, n) = wait thread-time(lock) / (n × run length), mean over the runs whose recording was read;</li>
 *   <li>Growth(lock) = Share at the last point of the series − Share at the last point before the knee.</li>
 * </ul>
 * The main series, whose knee is reported and across whose knee locks are ranked, is the one with
 * the most CPUs: Guerin et al. run every thread count on all cores.
 */
public final class SweepAnalysis {
    public static final double DEFAULT_THRESHOLD = 0.8;
    /** A lock "grows" in the layer walk when its share rises by at least this much (1% of thread time). */
    public static final double GROWING = 0.01;

    private final double threshold;
    private final LayerClassifier layers;

    public SweepAnalysis(double threshold, LayerClassifier layers) {
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException("efficiency threshold must be in (0, 1]: " + threshold);
        }
        this.threshold = threshold;
        this.layers = layers;
    }

    public SweepResult analyse(List<PointRun> runs) {
        List<SweepPoint> points = new ArrayList<>();
        List<List<PointRun>> runsByPoint = new ArrayList<>();
        TreeMap<Integer, Map<Integer, List<PointRun>>> byCpus = new TreeMap<>();
        for (PointRun r : runs) {
            byCpus.computeIfAbsent(r.cpus(), c -> new TreeMap<>()).computeIfAbsent(r.threads(), t -> new ArrayList<>()).add(r);
        }
        byCpus.forEach((cpus, series) -> {
            double[] base = null; // {n₀, X(n₀)}
            for (List<PointRun> pointRuns : series.values()) {
                SweepPoint p = combine(pointRuns, base);
                if (base == null && p.ok()) {
                    base = new double[] {p.threads(), p.throughput()};
                    p = combine(pointRuns, base);
                }
                points.add(p);
                runsByPoint.add(pointRuns);
            }
        });
        int mainCpus = byCpus.isEmpty() ? 0 : byCpus.lastKey();
        List<SweepPoint> main = points.stream().filter(p -> p.cpus() == mainCpus && p.ok()).toList();
        Optional<SweepPoint> knee = main.stream().filter(p -> p.efficiency() < threshold).findFirst();
        Optional<SweepPoint> peak = points.stream().filter(SweepPoint::ok)
                .max(Comparator.comparingDouble(SweepPoint::throughput));
        Optional<SweepPoint> before = knee.isPresent()
                ? main.stream().filter(p -> p.threads() < knee.get().threads()).reduce((a, b) -> b)
                : main.stream().findFirst();
        if (before.isEmpty()) {
            before = main.stream().findFirst();
        }
        Optional<SweepPoint> after = main.isEmpty() ? Optional.empty() : Optional.of(main.get(main.size() - 1));
        List<LockGrowth> locks = lockGrowth(points, runsByPoint, before.orElse(null), after.orElse(null));
        return new SweepResult(points, threshold, mainCpus, knee, peak, before, after, locks, walk(locks));
    }

    private static SweepPoint combine(List<PointRun> runs, double[] base) {
        double sum = 0;
        int ok = 0;
        Path first = null;
        List<Path> recordings = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (PointRun r : runs) {
            if (r.recording() != null) {
                recordings.add(r.recording());
            }
            if (r.ok()) {
                sum += r.throughput();
                if (ok++ == 0) {
                    first = r.recording();
                }
            } else {
                failures.add(r.failure());
            }
        }
        PointRun any = runs.get(0);
        double x = ok == 0 ? Double.NaN : sum / ok;
        double ideal = base == null ? Double.NaN : any.threads() / base[0];
        double speedup = base == null ? Double.NaN : x / base[1];
        return new SweepPoint(any.threads(), any.cpus(), x, ideal, speedup, speedup / ideal, first, recordings,
                failures, runs.size());
    }

    /** Mean wait thread-time and share per lock and point, then growth from {@code before} to {@code after}. */
    private List<LockGrowth> lockGrowth(List<SweepPoint> points, List<List<PointRun>> runsByPoint,
                                        SweepPoint before, SweepPoint after) {
        Map<String, long[]> time = new LinkedHashMap<>();
        Map<String, double[]> share = new LinkedHashMap<>();
        Map<String, ContendedLock> representative = new LinkedHashMap<>();
        for (int i = 0; i < points.size(); i++) {
            // runs whose recording was read: a run without one has unknown, not zero, waits
            List<PointRun> ok = runsByPoint.get(i).stream().filter(r -> r.ok() && r.durationNanos() > 0).toList();
            for (PointRun r : ok) {
                long threadTime = (long) r.threads() * r.durationNanos();
                for (ContendedLock l : r.locks()) {
                    time.computeIfAbsent(l.key(), k -> new long[points.size()])[i] += l.threadTimeNanos() / ok.size();
                    share.computeIfAbsent(l.key(), k -> new double[points.size()])[i] +=
                            threadTime <= 0 ? 0 : (double) l.threadTimeNanos() / threadTime / ok.size();
                    representative.merge(l.key(), l, (a, b) -> b.threadTimeNanos() > a.threadTimeNanos() ? b : a);
                }
            }
        }
        int b = before == null ? -1 : points.indexOf(before);
        int a = after == null ? -1 : points.indexOf(after);
        List<LockGrowth> out = new ArrayList<>();
        representative.forEach((key, l) -> {
            double[] s = share.get(key);
            double sb = b < 0 ? 0 : s[b];
            double sa = a < 0 ? 0 : s[a];
            String ownerMethod = layers.firstUserFrame(l.ownerFrames())
                    .orElse(l.ownerFrames().isEmpty() ? "?" : l.ownerFrames().get(0));
            out.add(new LockGrowth(l.kind(), l.className(), l.site(), layerOf(l),
                    layers.firstUserFrame(l.waiterFrames()).orElse(l.site()), l.waiterFrames(), l.ownerFrames(),
                    ownerMethod, layers.classify(ownerMethod), l.ownerSource(), l.waiterThreads(),
                    Arrays.stream(time.get(key)).boxed().toList(),
                    Arrays.stream(s).boxed().toList(), sb, sa, sa - sb));
        });
        out.sort(Comparator.comparingDouble(LockGrowth::growth).reversed()
                .thenComparing(Comparator.comparingDouble(LockGrowth::shareAfter).reversed())
                .thenComparing(l -> l.kind().label() + "|" + l.className() + "|" + l.site()));
        return out;
    }

    /**
     * The layer of the code that takes and holds the lock: the JVM's when only the JVM's own threads
     * (JFR, cleaner, reference handler, ...) wait on it, otherwise that of its site.
     */
    private Layer layerOf(ContendedLock l) {
        boolean jvmOnly = !l.waiterThreads().isEmpty()
                && l.waiterThreads().stream().allMatch(t -> layers.classifyThread(t).isPresent());
        return jvmOnly ? Layer.JVM : layers.classify(l.site());
    }

    private static LayerWalk walk(List<LockGrowth> ranked) {
        List<LayerWalk.Step> steps = new ArrayList<>();
        for (Layer layer : Layer.values()) {
            steps.add(new LayerWalk.Step(layer, ranked.stream()
                    .filter(l -> l.layer() == layer && l.growth() >= GROWING).toList()));
        }
        return new LayerWalk(steps);
    }
}
