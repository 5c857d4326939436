package dev.lockscope.report.scale;

import dev.lockscope.analysis.scale.ContendedLock;
import dev.lockscope.analysis.scale.LayerClassifier;
import dev.lockscope.analysis.scale.PointRun;
import dev.lockscope.analysis.scale.SweepAnalysis;
import dev.lockscope.analysis.scale.SweepResult;
import dev.lockscope.core.LockKind;

import java.nio.file.Path;
import java.util.List;

/** A hand-built sweep: knee at 4 threads, a Hashtable lock held by Report.render growing from 5% to 70%. */
final class SweepFixture {
    static final long SECOND = 1_000_000_000L;
    static final Path DIR = Path.of("/tmp/sweep");

    private SweepFixture() {
    }

    static ContendedLock hashtable(long threadTime) {
        return new ContendedLock(LockKind.MONITOR, "java.util.Hashtable", "java.util.Hashtable.get:385",
                List.of("java.util.Hashtable.get:385", "com.shop.Cache.get:12"),
                List.of("java.util.Hashtable.get:385", "com.shop.Report.render:30"), "previousOwner", 5, threadTime, List.of("worker-0"));
    }

    static ContendedLock appLock(long threadTime) {
        return new ContendedLock(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                "com.shop.Orders.place:42", List.of("com.shop.Orders.place:42"), List.of("com.shop.Orders.place:44"),
                "unpark", 5, threadTime, List.of("worker-0"));
    }

    private static PointRun run(int threads, double x, ContendedLock... locks) {
        return new PointRun(threads, 2, 0, x, DIR.resolve("t" + threads + "-c2.jfr"), null, SECOND, List.of(locks));
    }

    static SweepResult result() {
        return new SweepAnalysis(0.8, LayerClassifier.defaults()).analyse(List.of(
                run(1, 100),
                run(2, 190, hashtable(SECOND / 10), appLock(SECOND / 5)),
                run(4, 300, hashtable(SECOND), appLock(SECOND / 5)),
                run(8, 310, hashtable(56 * SECOND / 10), appLock(SECOND / 5)),
                PointRun.failed(16, 2, 0, null, "exit code 3")));
    }

    static SweepContext context() {
        return new SweepContext(DIR, List.of("java", "-jar", "app.jar", "--threads", "{threads}"),
                List.of("asked for 4 CPUs, this machine has 2"));
    }
}
