package dev.lockscope.analysis.scale;

import dev.lockscope.core.LockKind;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SweepAnalysisTest {
    private static final long SECOND = 1_000_000_000L;
    private static final String APP_SITE = "com.shop.Orders.place:42";
    private static final String JDK_SITE = "java.util.Hashtable.get:385";

    private final SweepAnalysis analysis = new SweepAnalysis(SweepAnalysis.DEFAULT_THRESHOLD, LayerClassifier.defaults());

    private static ContendedLock appLock(long threadTime) {
        return new ContendedLock(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync", APP_SITE,
                List.of(APP_SITE, "com.shop.Api.order:7"), List.of("com.shop.Orders.place:44", "com.shop.Api.order:7"),
                "unpark", 10, threadTime, List.of("worker-0"));
    }

    private static ContendedLock jdkLock(long threadTime) {
        return new ContendedLock(LockKind.MONITOR, "java.util.Hashtable", JDK_SITE,
                List.of(JDK_SITE, "com.shop.Cache.get:12"), List.of(JDK_SITE, "com.shop.Report.render:30"),
                "previousOwner", 10, threadTime, List.of("worker-0"));
    }

    private static PointRun run(int threads, int cpus, double x, ContendedLock... locks) {
        return new PointRun(threads, cpus, 0, x, Path.of("t" + threads + ".jfr"), null, SECOND, List.of(locks));
    }

    /** X = 100, 190, 300, 310 at 1, 2, 4, 8 threads: efficiency 1, 0.95, 0.75, 0.3875. */
    private static List<PointRun> curve() {
        return List.of(
                run(1, 2, 100),
                run(2, 2, 190, appLock(SECOND / 10), jdkLock(6 * SECOND / 10)),
                run(4, 2, 300, appLock(SECOND), jdkLock(SECOND)),
                run(8, 2, 310, appLock(56 * SECOND / 10), jdkLock(28 * SECOND / 10)));
    }

    @Test
    void speedupEfficiencyKneeAndPeak() {
        SweepResult r = analysis.analyse(curve());
        assertThat(r.points()).extracting(SweepPoint::threads).containsExactly(1, 2, 4, 8);
        assertThat(r.points()).extracting(SweepPoint::idealSpeedup).containsExactly(1.0, 2.0, 4.0, 8.0);
        assertThat(r.points()).extracting(SweepPoint::speedup).containsExactly(1.0, 1.9, 3.0, 3.1);
        assertThat(r.points().get(1).efficiency()).isCloseTo(0.95, within(1e-12));
        assertThat(r.points().get(2).efficiency()).isCloseTo(0.75, within(1e-12));
        assertThat(r.points().get(3).efficiency()).isCloseTo(0.3875, within(1e-12));
        assertThat(r.knee()).map(SweepPoint::threads).contains(4);
        assertThat(r.peak()).map(SweepPoint::threads).contains(8);
        assertThat(r.before()).map(SweepPoint::threads).contains(2);
        assertThat(r.after()).map(SweepPoint::threads).contains(8);
        assertThat(r.mainCpus()).isEqualTo(2);
    }

    @Test
    void thresholdIsInclusiveOfExactlyScalingPoints() {
        // efficiency exactly 0.75 is not below a threshold of 0.75
        SweepResult r = new SweepAnalysis(0.75, LayerClassifier.defaults()).analyse(curve());
        assertThat(r.knee()).map(SweepPoint::threads).contains(8);
    }

    @Test
    void noKneeWhenEveryPointScales() {
        SweepResult r = analysis.analyse(List.of(run(1, 2, 100), run(2, 2, 200), run(4, 2, 390)));
        assertThat(r.knee()).isEmpty();
        assertThat(r.before()).map(SweepPoint::threads).contains(1);
        assertThat(r.after()).map(SweepPoint::threads).contains(4);
        assertThat(r.peak()).map(SweepPoint::threads).contains(4);
    }

    @Test
    void locksRankedByGrowthOfShareAcrossTheKnee() {
        SweepResult r = analysis.analyse(curve());
        // app: 0.1 s of 2 thread-s = 5% before the knee, 5.6 s of 8 thread-s = 70% after: +0.65
        // jdk: 0.6/2 = 30% before, 2.8/8 = 35% after: +0.05, although it was the larger one before
        assertThat(r.locks()).extracting(LockGrowth::site).containsExactly(APP_SITE, JDK_SITE);
        LockGrowth app = r.locks().get(0);
        assertThat(app.shareBefore()).isCloseTo(0.05, within(1e-12));
        assertThat(app.shareAfter()).isCloseTo(0.70, within(1e-12));
        assertThat(app.growth()).isCloseTo(0.65, within(1e-12));
        assertThat(app.threadTimeNanos()).containsExactly(0L, SECOND / 10, SECOND, 56 * SECOND / 10);
        assertThat(app.layer()).isEqualTo(Layer.APPLICATION);
        assertThat(app.ownerMethod()).isEqualTo("com.shop.Orders.place:44");
        assertThat(app.waiterMethod()).isEqualTo(APP_SITE);

        LockGrowth jdk = r.locks().get(1);
        assertThat(jdk.growth()).isCloseTo(0.05, within(1e-12));
        assertThat(jdk.layer()).isEqualTo(Layer.JDK);
        assertThat(jdk.waiterMethod()).isEqualTo("com.shop.Cache.get:12");
        assertThat(jdk.ownerMethod()).isEqualTo("com.shop.Report.render:30");
        assertThat(jdk.ownerLayer()).isEqualTo(Layer.APPLICATION);
    }

    @Test
    void layerWalkIsTopDown() {
        SweepResult r = analysis.analyse(curve());
        assertThat(r.walk().steps()).extracting(LayerWalk.Step::layer).containsExactly(Layer.values());
        assertThat(r.walk().firstBottleneck()).map(LayerWalk.Step::layer).contains(Layer.APPLICATION);
        assertThat(r.walk().steps().get(Layer.JDK.ordinal()).locks()).extracting(LockGrowth::site).containsExactly(JDK_SITE);
        assertThat(r.walk().steps().get(Layer.MIDDLEWARE.ordinal()).locks()).isEmpty();
    }

    @Test
    void aLockOnlyTheJvmsOwnThreadsWaitOnIsInTheJvmLayer() {
        ContendedLock jfr = new ContendedLock(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                "jdk.jfr.internal.PlatformRecorder.periodicTask:500", List.of("jdk.jfr.internal.PlatformRecorder.periodicTask:500"),
                List.of(), "waiter-site", 3, SECOND, List.of("JFR Periodic Tasks", "JFR Recorder Thread"));
        SweepResult r = analysis.analyse(List.of(run(1, 2, 100), run(2, 2, 150, jfr)));
        assertThat(r.locks().get(0).layer()).isEqualTo(Layer.JVM);
        assertThat(r.walk().firstBottleneck()).map(LayerWalk.Step::layer).contains(Layer.JVM);
    }

    @Test
    void repeatsAreAveragedAndFailedRunsSkipped() {
        List<PointRun> runs = new ArrayList<>(List.of(
                run(1, 2, 100),
                PointRun.failed(1, 2, 1, null, "exit code 1"),
                new PointRun(2, 2, 0, 180, Path.of("a.jfr"), null, SECOND, List.of(appLock(SECOND / 10))),
                new PointRun(2, 2, 1, 200, Path.of("b.jfr"), null, SECOND, List.of(appLock(3 * SECOND / 10))),
                new PointRun(2, 2, 2, 190, Path.of("unreadable.jfr"), null, 0, List.of()),
                PointRun.failed(4, 2, 0, null, "no throughput line")));
        SweepResult r = analysis.analyse(runs);
        assertThat(r.points()).hasSize(3);
        SweepPoint one = r.points().get(0);
        assertThat(one.ok()).isTrue();
        assertThat(one.failures()).containsExactly("exit code 1");
        assertThat(one.runs()).isEqualTo(2);
        SweepPoint two = r.points().get(1);
        assertThat(two.throughput()).isEqualTo(190.0);
        assertThat(two.recording()).isEqualTo(Path.of("a.jfr"));
        assertThat(two.recordings()).containsExactly(Path.of("a.jfr"), Path.of("b.jfr"), Path.of("unreadable.jfr"));
        SweepPoint four = r.points().get(2);
        assertThat(four.ok()).isFalse();
        assertThat(four.speedup()).isNaN();
        assertThat(r.knee()).isEmpty();
        assertThat(r.after()).map(SweepPoint::threads).contains(2);
        // mean of 0.1 s and 0.3 s over 2 thread-seconds; the run without a readable recording does not count
        assertThat(r.locks().get(0).threadTimeNanos().get(1)).isEqualTo(SECOND / 5);
        assertThat(r.locks().get(0).shares().get(1)).isCloseTo(0.1, within(1e-12));
    }

    @Test
    void eachCpuSeriesHasItsOwnBaselineAndTheLargestIsMain() {
        SweepResult r = analysis.analyse(List.of(
                run(1, 1, 100), run(2, 1, 110), run(4, 1, 100),
                run(1, 2, 100), run(2, 2, 200), run(4, 2, 220)));
        assertThat(r.points()).extracting(p -> p.cpus() + "/" + p.threads())
                .containsExactly("1/1", "1/2", "1/4", "2/1", "2/2", "2/4");
        assertThat(r.points().get(1).efficiency()).isCloseTo(0.55, within(1e-12));
        assertThat(r.mainCpus()).isEqualTo(2);
        assertThat(r.knee()).map(p -> p.cpus() + "/" + p.threads()).contains("2/4");
        assertThat(r.peak()).map(p -> p.cpus() + "/" + p.threads()).contains("2/4");
    }

    @Test
    void baselineIsTheFirstSuccessfulPoint() {
        SweepResult r = analysis.analyse(List.of(PointRun.failed(1, 2, 0, null, "exit code 3"),
                run(2, 2, 200), run(4, 2, 400), run(8, 2, 500)));
        assertThat(r.points()).extracting(SweepPoint::idealSpeedup).containsExactly(Double.NaN, 1.0, 2.0, 4.0);
        assertThat(r.points().get(3).efficiency()).isCloseTo(0.625, within(1e-12));
        assertThat(r.knee()).map(SweepPoint::threads).contains(8);
    }
}
