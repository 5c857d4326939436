package dev.lockscope.report.model;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameNode;
import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.report.TextReport;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lock sites on a recording shaped like Derby's lock table: thousands of short-lived lock objects of one
 * class, each created, contended once and dropped at one site, beside one long-held global lock that
 * is the largest single object but not the largest site; and one {@code synchronized} object whose
 * monitor the JVM deflated and inflated again twice (three addresses).
 */
class LockSitesReportTest {
    private static final long MS = 1_000_000;
    private static final long START = 1_767_225_600_000_000_000L;
    private static final String SYNC = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
    private static final ThreadRef A = new ThreadRef(1, 101, "worker-1");
    private static final ThreadRef B = new ThreadRef(2, 102, "worker-2");
    private static final int ENTRIES = 3000;
    private static final List<String> ENTRY_LOCK = List.of("java.util.concurrent.locks.LockSupport.park:211",
            "java.util.concurrent.locks.ReentrantLock.lock:322", "org.derby.LockTable.lock:77", "org.derby.Txn.run:12");
    private static final List<String> ENTRY_UNLOCK = List.of("java.util.concurrent.locks.LockSupport.unpark:177",
            "java.util.concurrent.locks.ReentrantLock.unlock:494", "org.derby.LockTable.unlock:88", "org.derby.Txn.run:14");
    private static final List<String> GLOBAL_LOCK = List.of("java.util.concurrent.locks.LockSupport.park:211",
            "java.util.concurrent.locks.ReentrantLock.lock:322", "com.app.Service.run:10");
    private static final List<String> CACHE = List.of("com.app.Cache.get:17", "com.app.Service.run:20");

    /** Entry i: B parks 5 ms on a fresh lock object held by A, A's unlock wakes it; 15 s of waiting in all. */
    private static LockRecording derbyLike() {
        List<ParkWait> parks = new ArrayList<>();
        List<Unpark> unparks = new ArrayList<>();
        long seq = 0;
        for (int i = 0; i < ENTRIES; i++) {
            long begin = START + i * 10 * MS;
            long end = begin + 5 * MS;
            int hash = 0x10000 + i;
            long parkSeq = ++seq;
            long unparkSeq = ++seq;
            unparks.add(new Unpark(A, end, unparkSeq, B.javaTid(), B.name(), SYNC, hash, ENTRY_UNLOCK));
            parks.add(new ParkWait(B, SYNC, hash, begin, end, parkSeq, unparkSeq, false, 0, null, 0, 0, ENTRY_LOCK));
        }
        // the global lock: 2 s of waiting on one object, more than any one entry, less than all of them
        long g = START + 31_000 * MS;
        parks.add(new ParkWait(A, SYNC, 7, g, g + 2_000 * MS, ++seq, ++seq, false, 0, null, 0, 0, GLOBAL_LOCK));
        List<MonitorEnter> enters = new ArrayList<>();
        for (long address : new long[]{0x7f00, 0x8a40, 0x9c80}) {
            long begin = START + 34_000 * MS + address;
            enters.add(new MonitorEnter(B, "com.app.Cache", address, begin, begin + 100 * MS, A, CACHE));
        }
        return new LockRecording(Path.of("/tmp/derby.jfr"), START, START + 40_000 * MS, Map.of(1L, A, 2L, B), parks,
                unparks, enters, List.of(), List.of(), List.of());
    }

    private static Report report(boolean byInstance) {
        LockRecording r = derbyLike();
        return ReportBuilder.read(r::replay, new ContentionOptions(0, 0, byInstance), Aspect.DEFAULT, false, false);
    }

    @Test
    void thousandsOfShortLivedObjectsAtOneSiteAreTheTopRow() {
        Report report = report(false);
        List<LockMetrics> rows = report.contention().rows();
        LockMetrics top = rows.get(0);
        assertThat(top.label()).isEqualTo(SYNC + " at org.derby.LockTable.lock:77");
        assertThat(top.instances()).isEqualTo(ENTRIES);
        assertThat(top.timesParked()).isEqualTo(ENTRIES);
        assertThat(top.totalWaitNanos()).isEqualTo(ENTRIES * 5 * MS)
                .isEqualTo(report.contention().locks().stream().filter(m -> m.firstFrames().equals(ENTRY_LOCK))
                        .mapToLong(LockMetrics::totalWaitNanos).sum());
        assertThat(rows).hasSize(3);

        // the finding and the blame tree rank the site too, and blame names the owner's code: the method
        // that called the lock table's unlock wrapper, not the wrapper
        assertThat(report.findings().get(0).subject()).isEqualTo("ReentrantLock at LockTable.lock:77 x3000");
        assertThat(report.findings().get(0).message()).contains("`ReentrantLock at LockTable.lock:77 x3000`", "held in `Txn.run`")
                .doesNotContain("LockTable.unlock");
        BlameNode first = report.blame().tree().children().get(0);
        // named as the table and the finding name the row
        assertThat(first.key()).isEqualTo("ReentrantLock at LockTable.lock:77 x3000");
        assertThat(first.totalNanos()).isEqualTo(ENTRIES * 5 * MS);

        String text = TextReport.render(report, null, 10);
        List<String> lines = text.lines().toList();
        int firstRow = lines.indexOf(lines.stream().filter(l -> l.startsWith("  1 ")).findFirst().orElseThrow());
        // the label is longer than the lock column: whole on the line under its row
        assertThat(lines.get(firstRow + 1)).isEqualTo("      ReentrantLock at LockTable.lock:77 x3000");
        assertThat(text).doesNotContain("@10000");
    }

    @Test
    void aDeflatedAndReinflatedMonitorIsOneRow() {
        LockMetrics cache = report(false).contention().rows().stream()
                .filter(m -> m.className().equals("com.app.Cache")).findFirst().orElseThrow();
        assertThat(cache.instances()).isEqualTo(3);
        assertThat(cache.timesParked()).isEqualTo(3);
        assertThat(cache.totalWaitNanos()).isEqualTo(300 * MS);
        assertThat(cache.identityHash()).isEqualTo("at com.app.Cache.get:17");
    }

    @Test
    void byInstanceTheLargestObjectLeadsAndEveryObjectIsARow() {
        Report report = report(true);
        List<LockMetrics> rows = report.contention().rows();
        assertThat(rows).hasSize(ENTRIES + 1 + 3);
        assertThat(rows.get(0).label()).isEqualTo(SYNC + "@7");
        assertThat(report.blame().tree().children().get(0).key()).isEqualTo("ReentrantLock@7");
    }

    private static final List<String> ROW_LOCK = List.of("java.lang.Object.wait:-1", "org.derby.locks.ActiveLock.waitForGrant:118",
            "org.derby.locks.ConcurrentLockSet.lockObject:487", "org.derby.store.RowLocking.lockRecordForWrite:248",
            "com.app.Tx.update:30");
    private static final List<String> TIMER = List.of("java.lang.Object.wait:-1", "java.util.TimerThread.mainLoop:553",
            "java.util.TimerThread.run:506");

    /**
     * A lock built on Object.wait, Derby's row locks: 8 threads wait at once, each on its own ActiveLock
     * object at one site, for 100 ms of every second, 10 times, each notified by the committing thread A.
     * The site is one {@code wait} row of contention, blamed on A; its real-time is the union of its
     * objects' waits (1 s of the 10 s recording, 10%), not their sum (80%); a timed-out wait and a
     * timer thread's notified wait are not contention.
     */
    /**
     * Two rows whose short names would be the same (two classes named Lock, waited for at one place): the table names
     * the one it shows as the findings do, by the shortest name unique among all rows, also when --top cuts the other.
     */
    @Test
    void theTableNamesARowAsTheFindingsDoWhenTopCutsItsNamesake() {
        List<String> at = List.of("java.lang.Object.wait:-1", "com.app.S.run:1");
        Map<Long, ThreadRef> threads = new java.util.HashMap<>(Map.of(1L, A, 2L, B));
        List<MonitorWait> waits = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            waits.add(new MonitorWait(B, "com.a.Lock", 0x100, START + i * 100 * MS, START + i * 100 * MS + 80 * MS, A, false, 0, at));
        }
        waits.add(new MonitorWait(A, "com.b.Lock", 0x200, START + 500 * MS, START + 510 * MS, B, false, 0, at));
        LockRecording r = new LockRecording(Path.of("/tmp/two.jfr"), START, START + 1_000 * MS, threads, List.of(), List.of(),
                List.of(), waits, List.of(), List.of());
        Report report = ReportBuilder.read(r::replay, new ContentionOptions(0, 0), Aspect.DEFAULT, false, false);

        String named = report.findings().get(0).subject();
        assertThat(named).contains("com.a.Lock").isNotEqualTo("Lock at S.run:1");
        String table = dev.lockscope.report.TextReport.render(report, null, 1);
        assertThat(table).contains("  1   wait ").contains(named).contains("[1] wait " + named);
    }

    /**
     * Jetty's connections waiting for another thread to initialise a class (HotSpot's init lock, an int[], with the
     * frame that needed the class on top): the finding names the static initialiser the notifier ran, not where its
     * pool thread went after the notifyAll, while the waiters queued to take the init lock back.
     */
    @Test
    void aClassInitialisationWaitIsBlamedOnTheStaticInitialiser() {
        List<String> needed = List.of("com.app.Conn.newParser:182", "com.app.Conn.fill:7");
        List<MonitorWait> waits = new ArrayList<>();
        Map<Long, ThreadRef> threads = new java.util.HashMap<>(Map.of(1L, A));
        for (int t = 0; t < 8; t++) {
            ThreadRef waiter = new ThreadRef(10 + t, 110 + t, "conn-" + t);
            threads.put(waiter.javaTid(), waiter);
            waits.add(new MonitorWait(waiter, "[I", 0x2000, START + t * MS, START + 100 * MS + t * MS, A, false, 0, needed));
        }
        List<CpuSample> samples = List.of(
                new CpuSample(A, START + 50 * MS, List.of("com.app.Parser.<clinit>:5", "com.app.Conn.newParser:182")),
                new CpuSample(A, START + 101 * MS, List.of("com.app.Pool.waitForTask:9", "com.app.Pool.run:1")),
                new CpuSample(A, START + 104 * MS, List.of("com.app.Pool.waitForTask:9", "com.app.Pool.run:1")));
        LockRecording r = new LockRecording(Path.of("/tmp/init.jfr"), START, START + 200 * MS, threads, List.of(), List.of(),
                List.of(), waits, samples, List.of());
        Report report = ReportBuilder.read(r::replay, new ContentionOptions(0, 0), Aspect.DEFAULT, false, false);

        assertThat(report.findings().get(0).message()).startsWith("`class initialisation at Conn.newParser:182` blocked 8 threads")
                .contains("the class was being initialised in `Parser.<clinit>` 100% of that time")
                .doesNotContain("waitForTask");
        // the text's owner blame names the lock as the table and the finding do, not by its int[]
        String blame = dev.lockscope.report.TextReport.render(report, null);
        blame = blame.substring(blame.indexOf("Owner blame:"));
        assertThat(blame).contains("  class initialisation at Conn.newParser:182\n").doesNotContain("[I");
    }

    @Test
    void waitNotifyLockObjectsAtOneSiteAreOneContentionRowWithTheUnionAsItsRealTime() {
        List<MonitorWait> waits = new ArrayList<>();
        List<CpuSample> samples = new ArrayList<>();
        Map<Long, ThreadRef> threads = new java.util.HashMap<>(Map.of(1L, A));
        long address = 0x1000;
        for (int round = 0; round < 10; round++) {
            // the committing thread, seen running its transaction while the others wait
            samples.add(new CpuSample(A, START + round * 1_000 * MS + 50 * MS, List.of("org.derby.store.Page.write:40",
                    "org.derby.store.RowLocking.lockRecordForWrite:250", "com.app.Tx.update:30")));
            for (int t = 0; t < 8; t++) {
                ThreadRef waiter = new ThreadRef(10 + t, 110 + t, "tx-" + t);
                threads.put(waiter.javaTid(), waiter);
                long begin = START + round * 1_000 * MS + t * MS;
                waits.add(new MonitorWait(waiter, "org.derby.locks.ActiveLock", address += 0x40, begin, begin + 100 * MS - t * MS, A,
                        false, 0, ROW_LOCK));
            }
        }
        ThreadRef timer = new ThreadRef(3, 103, "Timer-0");
        threads.put(3L, timer);
        waits.add(new MonitorWait(timer, "java.util.TaskQueue", 0x9000, START, START + 5_000 * MS, A, false, 0, TIMER));
        waits.add(new MonitorWait(B, "com.app.Poller", 0x9100, START, START + 3_000 * MS, null, true, 3_000, List.of(
                "java.lang.Object.wait:-1", "com.app.Poller.poll:5")));
        waits.sort(java.util.Comparator.comparingLong(MonitorWait::endNanos));
        LockRecording r = new LockRecording(Path.of("/tmp/rows.jfr"), START, START + 10_000 * MS, threads, List.of(), List.of(),
                List.of(), waits, samples, List.of());
        Report report = ReportBuilder.read(r::replay, new ContentionOptions(0, 0), Aspect.DEFAULT, false, false);

        LockMetrics top = report.contention().rows().get(0);
        assertThat(top.kind()).isEqualTo(LockKind.WAIT);
        assertThat(top.label()).isEqualTo("org.derby.locks.ActiveLock at org.derby.locks.ActiveLock.waitForGrant:118");
        assertThat(top.instances()).isEqualTo(80);
        assertThat(top.realTimeNanos()).as("the union of the objects' waits").isEqualTo(10 * 100 * MS);
        assertThat(top.realTimeUtilPct()).isEqualTo(10.0);
        assertThat(report.waits().verdictOf(top).rule()).isEqualTo("wait-notified");
        assertThat(report.findings().get(0).message()).startsWith("Object.wait on `ActiveLock at ActiveLock.waitForGrant:118 x80` blocked 8 threads for 10% of wall time")
                .contains("the threads that notified them held it in `Page.write` 100% of that time");
        assertThat(report.blame().tree().children().get(0).key()).isEqualTo("ActiveLock at ActiveLock.waitForGrant:118 x80");

        LockMetrics timerRow = report.contention().rows().stream().filter(m -> m.className().equals("java.util.TaskQueue"))
                .findFirst().orElseThrow();
        assertThat(report.waits().verdictOf(timerRow).rule()).isEqualTo("timer-queue");
        assertThat(report.contention().rows()).as("a timed-out wait waited for nobody")
                .noneMatch(m -> m.className().equals("com.app.Poller"));
        assertThat(report.blame().waits()).singleElement().satisfies(w -> assertThat(w.lock().lockClass()).isEqualTo("com.app.Poller"));
    }
}
