package dev.lockscope.report.export;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.LockContentionAnalysis;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A small hand-built recording with known waits, for the renderers' tests (no JFR involved). */
public final class Recordings {
    public static final long MS = 1_000_000;
    public static final long START = 1_767_225_600_000_000_000L;
    public static final String LOCK = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
    public static final ThreadRef A = new ThreadRef(21, 1021, "worker-a");
    public static final ThreadRef B = new ThreadRef(22, 1022, "worker-b");
    public static final ThreadRef C = new ThreadRef(23, 1023, "worker-c");
    public static final List<String> RESERVE = List.of("java.util.concurrent.locks.LockSupport.park",
            "java.util.concurrent.locks.ReentrantLock.lock:322", "com.example.Inventory.reserve:42", "java.lang.Thread.run:840");
    public static final List<String> CACHE = List.of("com.example.Cache.get:17", "java.lang.Thread.run:840");

    private Recordings() {
    }

    /**
     * Parks on one ReentrantLock (hash 0xabc): A 0..30 ms, B 10..60 ms, A 70..100 ms (110 ms in all);
     * a monitor entry on com.example.Cache (address 0x7f00) by C 20..25 ms; C sleeps 30..40 ms and
     * waits 40..45 ms; B is sampled running at 60, 80 and 100 ms. The recording lasts 200 ms.
     */
    public static LockRecording small() {
        return new LockRecording(Path.of("/tmp/small.jfr"), START, START + 200 * MS, Map.of(21L, A, 22L, B, 23L, C),
                List.of(park(A, 0, 30, 1), park(B, 10, 60, 2), park(A, 70, 100, 3)), List.of(),
                List.of(new MonitorEnter(C, "com.example.Cache", 0x7f00, START + 20 * MS, START + 25 * MS, A, CACHE)),
                List.of(new MonitorWait(C, "com.example.Cache", 0x7f00, START + 40 * MS, START + 45 * MS, null, true, 5, CACHE)),
                List.of(sample(B, 60), sample(B, 80), sample(B, 100)),
                List.of(new Interval("jdk.ThreadSleep", C, START + 30 * MS, START + 40 * MS, List.of())));
    }

    public static LockContention contention(LockRecording r) {
        return r.contention(new ContentionOptions(0, 0));
    }

    /** The report of the recording, blame grouped by lock and owner method, with the timeline. */
    public static Report report(LockRecording r) {
        return ReportBuilder.read(r::replay, new ContentionOptions(0, 0), Aspect.DEFAULT, false, true);
    }

    private static ParkWait park(ThreadRef t, long beginMs, long endMs, long seq) {
        return new ParkWait(t, LOCK, 0xabc, START + beginMs * MS, START + endMs * MS, seq, seq, false, 0, null,
                0, 0, RESERVE);
    }

    private static CpuSample sample(ThreadRef t, long ms) {
        return new CpuSample(t, START + ms * MS, List.of("com.example.Inventory.audit:77"));
    }
}
