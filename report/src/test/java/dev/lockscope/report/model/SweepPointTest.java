package dev.lockscope.report.model;

import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.scale.ContendedLock;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A sweep point's locks are the report's contention rows: an idle pool's queue, the largest wait, is not one. */
class SweepPointTest {
    private static final long MS = 1_000_000;
    private static final long START = 1_767_225_600_000_000_000L;
    private static final ThreadRef WORKER = new ThreadRef(1, 101, "pool-1-thread-1");
    private static final ThreadRef A = new ThreadRef(2, 102, "request-1");
    private static final ThreadRef B = new ThreadRef(3, 103, "request-2");
    private static final String CONDITION = "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject";
    private static final String SYNC = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
    private static final List<String> IDLE_WORKER = List.of("java.util.concurrent.locks.LockSupport.park:211",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await:1623",
            "java.util.concurrent.LinkedBlockingQueue.take:429", "java.util.concurrent.ThreadPoolExecutor.getTask:1070",
            "java.util.concurrent.ThreadPoolExecutor.runWorker:1130");
    private static final List<String> GLOBAL_LOCK = List.of("java.util.concurrent.locks.LockSupport.park:211",
            "java.util.concurrent.locks.ReentrantLock.lock:322", "com.app.Service.handle:10");

    @Test
    void idleWaitsAreNotAmongTheLocks() {
        List<ParkWait> parks = List.of(
                new ParkWait(WORKER, CONDITION, 1, START, START + 9_000 * MS, 1, 11, false, 0, null, 0, 0, IDLE_WORKER),
                new ParkWait(A, SYNC, 2, START + 100 * MS, START + 400 * MS, 2, 12, false, 0, null, 0, 0, GLOBAL_LOCK),
                new ParkWait(B, SYNC, 2, START + 500 * MS, START + 900 * MS, 3, 13, false, 0, null, 0, 0, GLOBAL_LOCK));
        LockRecording r = new LockRecording(Path.of("/tmp/point.jfr"), START, START + 10_000 * MS,
                Map.of(1L, WORKER, 2L, A, 3L, B), parks, List.of(), List.of(), List.of(), List.of(), List.of());
        ReportBuilder.SweepPoint point = ReportBuilder.sweepPoint(r::replay);
        assertThat(point.durationNanos()).isEqualTo(10_000 * MS);
        assertThat(point.locks()).extracting(ContendedLock::className).containsExactly(SYNC);
        assertThat(point.locks().get(0).threadTimeNanos()).isEqualTo(700 * MS);
    }
}
