package dev.lockscope.report;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockTable;
import dev.lockscope.core.ParkTally;

import java.nio.file.Path;
import java.util.List;

/** Hand-built analysis results with known metrics; no recording needed to test the renderers. */
final class Fixtures {
    static final long SECOND = 1_000_000_000L;
    /** 2026-01-01T00:00:00Z */
    static final long START = 1_767_225_600L * SECOND;

    private Fixtures() {
    }

    /** parks 0..30, 10..60, 40..100 ms: thread-time 140 ms, real-time 100 ms, 3 parks, peak 2. */
    static LockMetrics busyPark() {
        long ms = 1_000_000;
        ParkTally t = ParkTally.empty(0).park(0).park(10 * ms).unpark(30 * ms).park(40 * ms).unpark(60 * ms)
                .unpark(100 * ms);
        return new LockMetrics(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync", "1b2c3d",
                "worker-1", List.of("java.util.concurrent.locks.LockSupport.park:211",
                "com.example.Service.handle:42"), t, 200 * ms);
    }

    /** one blocked entry of 5 ms, one thread still blocked. */
    static LockMetrics monitor() {
        long ms = 1_000_000;
        ParkTally t = ParkTally.empty(0).park(0).unpark(5 * ms).park(6 * ms);
        return new LockMetrics(LockKind.MONITOR, "com.example.Cache", "7f3a0001c0", "worker-2",
                List.of("com.example.Cache.get:17"), t, 200 * ms);
    }

    static LockContention contention() {
        return new LockContention(Path.of("/tmp/app.jfr"), START, 2 * SECOND, new ContentionOptions(0, 1, true),
                LockTable.ranked(List.of(monitor(), busyPark())), 3);
    }
}
