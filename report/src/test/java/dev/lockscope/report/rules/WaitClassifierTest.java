package dev.lockscope.report.rules;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.OwnerChain;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.ParkTally;
import dev.lockscope.report.JsonReport;
import dev.lockscope.report.TextReport;
import dev.lockscope.report.export.Recordings;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WaitClassifierTest {
    private static final String CONDITION = "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject";
    private static final List<String> POOL_IDLE = List.of("java.util.concurrent.locks.LockSupport.park:371",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await:1761",
            "java.util.concurrent.LinkedBlockingQueue.take:435",
            "java.util.concurrent.ThreadPoolExecutor.getTask:1070",
            "java.util.concurrent.ThreadPoolExecutor.runWorker:1130", "java.lang.Thread.run:840");
    private static final List<String> TERMINATION = List.of("java.util.concurrent.locks.LockSupport.parkNanos:269",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos:1847",
            "java.util.concurrent.ThreadPoolExecutor.awaitTermination:1475", "com.example.Main.main:12");

    private static LockMetrics lock(LockKind kind, String className, List<String> frames) {
        return new LockMetrics(kind, className, "1", "pool-1-thread-1", frames, ParkTally.empty(0).park(0).unpark(5), 10);
    }

    private static WaitClassifier.Verdict classify(WaitClassifier c, String className, List<String> frames) {
        return c.classify(lock(LockKind.PARK, className, frames), List.of());
    }

    @Test
    void locksTakenAreContentionAndPoolQueuesAndTerminationWaitsAreIdle() {
        WaitClassifier c = WaitClassifier.DEFAULTS;
        assertThat(classify(c, Recordings.LOCK, Recordings.RESERVE))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.CONTENTION, "lock-acquire"));
        assertThat(c.classify(lock(LockKind.MONITOR, "com.example.Cache", Recordings.CACHE), List.of()).rule())
                .isEqualTo("monitor-enter");
        assertThat(classify(c, CONDITION, POOL_IDLE)).isEqualTo(new WaitClassifier.Verdict(WaitClass.IDLE, "pool-queue"));
        assertThat(classify(c, CONDITION, TERMINATION).rule()).isEqualTo("termination-wait");
        assertThat(classify(c, "java.util.concurrent.Semaphore$NonfairSync", List.of(
                "org.eclipse.jetty.util.thread.ReservedThreadExecutor$ReservedThread.reservedWait:324")).rule())
                .isEqualTo("jetty-reserved-thread");
        assertThat(c.classify(lock(LockKind.MONITOR, "[I", List.of("jdk.jfr.internal.handlers.EventHandler1.write",
                "dev.lockscope.agent.boot.ParkBeginEvent.commit")), List.of()))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.OTHER, "lockscope-own"));
        assertThat(c.classify(lock(LockKind.MONITOR, "[I", POOL_IDLE.subList(1, POOL_IDLE.size())), List.of()).rule())
                .isEqualTo("lockscope-own"); // the reader trimmed the agent's frames: entered at a park site
        assertThat(c.classify(lock(LockKind.MONITOR, "jdk.jfr.internal.PlatformRecorder", List.of(
                "jdk.jfr.internal.PlatformRecorder.periodicTask:515")), List.of()).rule()).isEqualTo("lockscope-own");
        // workers taking their queue's lock to get work (seen on JDK 25 when a pool starts) wait for work
        assertThat(classify(c, Recordings.LOCK, List.of("java.util.concurrent.locks.ReentrantLock.lockInterruptibly:246",
                "java.util.concurrent.LinkedBlockingQueue.take:429", "java.util.concurrent.ThreadPoolExecutor.getTask:1070")))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.IDLE, "pool-queue"));
        // the JVM's class-init lock (an int[]), waited for with the frame that needed the class on top; a real
        // Object.wait on an int[] is a lock built on wait/notify
        assertThat(c.classify(lock(LockKind.WAIT, "[I", List.of("java.lang.VirtualThread.unblockVirtualThreads:1515",
                "java.lang.Thread.run:1474")), List.of())).isEqualTo(new WaitClassifier.Verdict(WaitClass.CONTENTION, "class-initialization"));
        LockMetrics init = lock(LockKind.WAIT, "[I", List.of("java.lang.VirtualThread.unblockVirtualThreads:1515"));
        assertThat(LockSentence.of(init, dev.lockscope.core.LockLabels.of(init), List.of(), List.of()))
                .startsWith("`class initialisation at VirtualThread.unblockVirtualThreads:1515` blocked");
        assertThat(c.classify(lock(LockKind.WAIT, "[I", List.of("java.lang.Object.wait0", "java.lang.Object.wait:389",
                "com.example.Rows.lock:12")), List.of()).rule()).isEqualTo("wait-notified");
        assertThat(classify(c, CONDITION, List.of("com.example.Queue.next:8")))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.OTHER, "condition-no-releaser"));
    }

    /**
     * A Jetty handler on a reserved thread waiting for the application's monitor: ReservedThreadExecutor
     * is at the bottom of its stack, where the thread came from, not where it waits.
     */
    @Test
    void anIdlePlaceDeepInTheStackIsWhereTheThreadCameFromNotWhereItWaits() {
        List<String> handler = new java.util.ArrayList<>(List.of("com.example.Stock.reserve:30", "com.example.Server$1.handle:61"));
        for (int i = 0; i < 20; i++) {
            handler.add("org.eclipse.jetty.server.internal.HttpChannelState$HandlerInvoker.run:" + i);
        }
        handler.add("org.eclipse.jetty.util.thread.ReservedThreadExecutor$ReservedThread.run:379");
        assertThat(WaitClassifier.DEFAULTS.classify(lock(LockKind.MONITOR, "java.lang.Object", handler), List.of()))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.CONTENTION, "monitor-enter"));
        List<String> reserved = List.of("java.util.concurrent.locks.LockSupport.parkNanos:269",
                "java.util.concurrent.LinkedTransferQueue$DualNode.await:452", "java.util.concurrent.SynchronousQueue.xfer:120",
                "java.util.concurrent.SynchronousQueue.poll:191",
                "org.eclipse.jetty.util.thread.ReservedThreadExecutor$ReservedThread.reservedWait:324",
                "org.eclipse.jetty.util.thread.ReservedThreadExecutor$ReservedThread.run:379");
        assertThat(classify(WaitClassifier.DEFAULTS, "java.util.concurrent.SynchronousQueue$Transferer", reserved).rule())
                .isEqualTo("jetty-reserved-thread");
    }

    /**
     * Idle places decide by time: a monitor whose waits were almost all in the application's handler
     * stays contention though one short wait was recorded with a selector frame near the top (seen on
     * Jetty's virtual-thread pool); when most of the time was at the idle place, it is idle.
     */
    @Test
    void anIdlePlaceInAFewShortWaitsDoesNotMakeAHotLockIdle() {
        dev.lockscope.core.LockId id = dev.lockscope.core.LockId.blocker("java.lang.Object", 1);
        List<String> handler = List.of("com.example.Stock.reserve:30", "com.example.Server$1.handle:61");
        List<String> selecting = List.of("com.example.Stock.reserve:30", "sun.nio.ch.SelectorImpl.select:141");
        LockMetrics monitor = lock(LockKind.MONITOR, "java.lang.Object", handler);
        BlameRow hot = new BlameRow(id, Recordings.A, handler, Recordings.B, List.of(), OwnerChain.SAMPLED, List.of(), 900, 9);
        BlameRow odd = new BlameRow(id, Recordings.B, selecting, Recordings.A, List.of(), OwnerChain.SAMPLED, List.of(), 100, 1);
        assertThat(WaitClassifier.DEFAULTS.classify(monitor, List.of(hot, odd)))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.CONTENTION, "monitor-enter"));
        BlameRow mostlySelecting = new BlameRow(id, Recordings.B, selecting, Recordings.A, List.of(), OwnerChain.SAMPLED, List.of(), 1000, 1);
        assertThat(WaitClassifier.DEFAULTS.classify(monitor, List.of(hot, mostlySelecting)))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.IDLE, "selector"));
        List<String> keepalive = List.of("java.util.concurrent.locks.LockSupport.park",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await:1752",
                "org.eclipse.jetty.util.thread.AutoLock$WithCondition.await:151",
                "org.eclipse.jetty.util.thread.VirtualThreadPool$1.run:149");
        assertThat(classify(WaitClassifier.DEFAULTS, CONDITION, keepalive).rule()).isEqualTo("jetty-keepalive");
    }

    /**
     * A lock built on Object.wait (counted only when another thread notified) is contention, except where
     * the waiter waits for work (a timer's queue, a reference queue) or for a thread or process to end.
     */
    @Test
    void notifiedObjectWaitsAreContentionOutsideIdlePlacesAndEndWaits() {
        WaitClassifier c = WaitClassifier.DEFAULTS;
        assertThat(c.classify(lock(LockKind.WAIT, "org.apache.derby.impl.services.locks.ActiveLock", List.of(
                "java.lang.Object.wait:-1", "org.apache.derby.impl.services.locks.ActiveLock.waitForGrant:118",
                "org.apache.derby.impl.services.locks.ConcurrentLockSet.lockObject:487")), List.of()))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.CONTENTION, "wait-notified"));
        assertThat(c.classify(lock(LockKind.WAIT, "java.util.TaskQueue", List.of("java.lang.Object.wait:-1",
                "java.util.TimerThread.mainLoop:553", "java.util.TimerThread.run:506")), List.of()))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.IDLE, "timer-queue"));
        assertThat(c.classify(lock(LockKind.WAIT, "java.lang.ref.ReferenceQueue$Lock", List.of("java.lang.Object.wait:-1",
                "java.lang.ref.ReferenceQueue.remove:155", "jdk.internal.ref.CleanerImpl.run:140")), List.of()).waitClass())
                .isEqualTo(WaitClass.IDLE);
        assertThat(c.classify(lock(LockKind.WAIT, "java.lang.Thread", List.of("java.lang.Object.wait0:-1",
                "java.lang.Thread.join:2070", "com.example.Main.main:9")), List.of()))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.OTHER, "thread-join"));
        assertThat(c.classify(lock(LockKind.WAIT, "java.lang.ProcessImpl", List.of("java.lang.Object.wait:-1",
                "java.lang.ProcessImpl.waitFor:434", "com.example.Main.main:9")), List.of()).rule()).isEqualTo("process-wait");
    }

    @Test
    void aConditionSignalledByAKnownThreadIsContention() {
        LockMetrics condition = lock(LockKind.PARK, CONDITION, List.of("com.example.Queue.next:8"));
        dev.lockscope.core.LockId id = dev.lockscope.core.LockId.blocker(CONDITION, 1);
        assertThat(WaitClassifier.DEFAULTS.classify(condition, List.of(), List.of(new dev.lockscope.analysis.blame.WaitRow(
                id, Recordings.A, "com.example.Queue.next", Recordings.B, List.of(), 5, 1, 0))))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.CONTENTION, "condition-signalled-by-releaser"));
        assertThat(WaitClassifier.DEFAULTS.classify(condition, List.of(), List.of(new dev.lockscope.analysis.blame.WaitRow(
                id, Recordings.A, "com.example.Queue.next", ThreadRef.UNKNOWN, List.of(), 5, 1, 1))).rule())
                .isEqualTo("condition-no-releaser");
    }

    @Test
    void theUsersPatternsDecideFirstContentionBeforeIdle() {
        WaitClassifier c = WaitClassifier.of("Inventory\\.reserve", "LinkedBlockingQueue");
        assertThat(classify(c, Recordings.LOCK, Recordings.RESERVE))
                .isEqualTo(new WaitClassifier.Verdict(WaitClass.IDLE, "--idle"));
        assertThat(classify(c, CONDITION, POOL_IDLE)).isEqualTo(new WaitClassifier.Verdict(WaitClass.CONTENTION, "--contention"));
        assertThatThrownBy(() -> WaitClassifier.of("(", null)).hasMessageStartingWith("--idle: not a regular expression");
    }

    @Test
    void aRecordingThatOnlyIdlesSaysNoContentionAndListsItsIdlePools() {
        Report report = ReportBuilder.read(idleOnly()::replay, new ContentionOptions(0, 0), Aspect.DEFAULT, false, false);
        assertThat(report.findings().get(0).message()).startsWith("No contention in this recording");
        assertThat(report.waits().idlePools()).extracting(WaitClasses.IdlePool::pool)
                .containsExactly("pool-#-thread-#", "main");
        String text = TextReport.render(report, null, 10);
        assertThat(text).contains("idle (threads waiting for work, not contention):")
                .containsPattern("pool-#-thread-# +0\\.2 s in 2 waits +\\(rule pool-queue\\)")
                .containsPattern("main +0\\.1 s in 1 wait +\\(rule termination-wait\\)");
        assertThat(JsonReport.render(report)).contains("\"waitClass\" : \"idle\"", "\"waitRule\" : \"pool-queue\"",
                "\"pool\" : \"pool-#-thread-#\"");
    }

    @Test
    void idleLocksNeverLeadTheFindings() {
        LockRecording small = Recordings.small();
        List<ParkWait> parks = new java.util.ArrayList<>(small.parks());
        parks.addAll(idleOnly().parks()); // 300 ms idle against 110 ms of contention
        LockRecording both = new LockRecording(small.source(), small.startNanos(), small.endNanos(), small.threads(),
                parks, List.of(), List.of(), List.of(), List.of(), List.of());
        Report report = Recordings.report(both);
        assertThat(report.contention().locks().get(0).className()).isEqualTo(CONDITION); // the table ranks by wait
        assertThat(report.findings().get(0).message()).startsWith("`ReentrantLock at Inventory.reserve:42` blocked")
                .endsWith("Contention by rule `lock-acquire`.");
        // the text's table is the contention's: the idle conditions leave it for the idle section (issue 40)
        String text = TextReport.render(report, null, 10);
        String table = text.substring(text.indexOf("lockscope: lock contention in"), text.indexOf("\nidle ("));
        assertThat(table).contains("] park ReentrantLock at Inventory.reserve:42").doesNotContain("ConditionObject")
                .contains("2 locks only idle threads waited for (workers waiting for work) left out");
        // owner blame, in every format, is the contention's: the idle conditions' 300 ms are not in its tree
        long idle = 0;
        for (int i = 0; i < report.contention().locks().size(); i++) {
            if (report.waits().of(i).waitClass() == WaitClass.IDLE) {
                idle += report.contention().locks().get(i).totalWaitNanos();
            }
        }
        assertThat(idle).isEqualTo(300 * Recordings.MS);
        assertThat(report.blame().totalNanos()).isEqualTo(110 * Recordings.MS);
    }

    /** Two idle pool threads on their queue's condition (100 ms each) and main awaiting termination (100 ms). */
    private static LockRecording idleOnly() {
        long ms = Recordings.MS;
        long start = Recordings.START;
        ThreadRef p1 = new ThreadRef(31, 1031, "pool-1-thread-1");
        ThreadRef p2 = new ThreadRef(32, 1032, "pool-1-thread-2");
        ThreadRef main = new ThreadRef(1, 1001, "main");
        return new LockRecording(Path.of("/tmp/idle.jfr"), start, start + 200 * ms, Map.of(31L, p1, 32L, p2, 1L, main),
                List.of(park(p1, 0xd1, 0, 100, 11, POOL_IDLE), park(p2, 0xd1, 50, 150, 12, POOL_IDLE),
                        park(main, 0xe1, 100, 200, 13, TERMINATION)),
                List.of(), List.of(), List.of(), List.of(), List.of());
    }

    private static ParkWait park(ThreadRef t, int hash, long beginMs, long endMs, long seq, List<String> frames) {
        return new ParkWait(t, CONDITION, hash, Recordings.START + beginMs * Recordings.MS,
                Recordings.START + endMs * Recordings.MS, seq, seq, false, 0, null, 0, 0, frames);
    }
}
