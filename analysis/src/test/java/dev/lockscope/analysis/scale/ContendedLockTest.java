package dev.lockscope.analysis.scale;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;
import dev.lockscope.core.LockKind;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ContendedLockTest {
    private static final ThreadRef A = new ThreadRef(1, 101, "worker-0");
    private static final ThreadRef B = new ThreadRef(2, 102, "worker-1");
    private static final ThreadRef C = new ThreadRef(3, 103, "worker-2");
    private static final String SYNC = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
    private static final List<String> PARK_STACK = List.of("jdk.internal.misc.Unsafe.park",
            "java.util.concurrent.locks.LockSupport.park:211",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire:715",
            "java.util.concurrent.locks.ReentrantLock.lock:322", "com.shop.Orders.place:42", "com.shop.Api.order:7");
    private static final List<String> UNLOCK_STACK = List.of("java.util.concurrent.locks.LockSupport.unpark:177",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer.release:1007",
            "java.util.concurrent.locks.ReentrantLock.unlock:494", "com.shop.Orders.place:47", "com.shop.Api.order:7");
    private static final List<String> CACHE = List.of("java.util.Hashtable.get:385", "com.shop.Cache.get:12",
            "com.shop.Report.render:30");

    /** A park with sequence numbers 10 × its times, so that an unpark at time t (seq 10t − 1) wakes a park ending at t. */
    private static ParkWait park(ThreadRef t, int hash, long begin, long end) {
        return new ParkWait(t, SYNC, hash, begin, end, begin * 10, end * 10, false, 0, null, 0, 0, PARK_STACK);
    }

    private static Unpark unpark(ThreadRef by, long time, ThreadRef target, int hash, List<String> frames) {
        return new Unpark(by, time, time * 10 - 1, target.javaTid(), target.name(), SYNC, hash, frames);
    }

    private static LockRecording recording(List<ParkWait> parks, List<Unpark> unparks, List<MonitorEnter> enters) {
        return new LockRecording(Path.of("x.jfr"), 0, 1000, Map.of(1L, A, 2L, B, 3L, C), parks, unparks, enters,
                List.of(), List.of(), List.of());
    }

    private static List<ContendedLock> contendedLocks(LockRecording rec) {
        LockContention table = rec.contention(ContentionOptions.DEFAULTS);
        return ContendedLock.of(table, table.rows(), rec.blame());
    }

    private static ContendedLock monitor(String className, String... waiterFrames) {
        return new ContendedLock(LockKind.MONITOR, className, waiterFrames[0], List.of(waiterFrames), List.of(), "waiter-site", 1, 1,
                List.of("worker-0"));
    }

    @Test
    void keyIsKindClassAndCallingMethodWithoutLine() {
        ContendedLock viaSize = monitor("java.util.Hashtable", "java.util.Hashtable.size:248", "com.shop.Cache.get:65");
        ContendedLock viaCompute = monitor("java.util.Hashtable", "java.util.Hashtable.computeIfAbsent:1137", "com.shop.Cache.get:66");
        assertThat(viaSize.key()).isEqualTo(viaCompute.key()).isEqualTo("monitor|java.util.Hashtable|com.shop.Cache.get");
        assertThat(monitor("java.util.Hashtable", "java.util.Hashtable.get:385", "com.shop.Report.render:3").key())
                .isNotEqualTo(viaSize.key());
        assertThat(monitor("java.lang.Object", "java.util.Hashtable.get:385").key())
                .as("no user frame: the site's method").isEqualTo("monitor|java.lang.Object|java.util.Hashtable.get");
    }

    @Test
    void parkWaitIsTheTablesAndTheOwnerIsTheReleasingCodeOwnerBlameFound() {
        LockRecording rec = recording(
                List.of(park(A, 7, 0, 100), park(B, 7, 50, 250), park(C, 9, 0, 10)),
                List.of(unpark(C, 100, A, 7, UNLOCK_STACK), unpark(A, 250, B, 7, UNLOCK_STACK),
                        unpark(A, 10, C, 9, List.of("com.other.Thing.release:3"))),
                List.of());
        // blockers 7 and 9 are two objects of one class waited for at one site: one lock site, one row
        List<ContendedLock> locks = contendedLocks(rec);
        assertThat(locks).hasSize(1);
        ContendedLock top = locks.get(0);
        assertThat(top.kind()).isEqualTo(LockKind.PARK);
        assertThat(top.threadTimeNanos()).isEqualTo(310)
                .isEqualTo(rec.contention(ContentionOptions.DEFAULTS).rows().get(0).totalWaitNanos());
        assertThat(top.waits()).isEqualTo(3);
        assertThat(top.site()).isEqualTo("com.shop.Orders.place:42");
        assertThat(top.waiterFrames()).containsExactly("com.shop.Orders.place:42", "com.shop.Api.order:7");
        // the owner of 300 of the 310 ns
        assertThat(top.ownerFrames()).containsExactly("com.shop.Orders.place:47", "com.shop.Api.order:7");
        assertThat(top.ownerSource()).isEqualTo("exact");
        assertThat(top.waiterThreads()).containsExactly("worker-0", "worker-1", "worker-2");
    }

    @Test
    void monitorOwnerIsTheChainBlamedForMostOfTheWait() {
        // B got the monitor at 40 via Report.render; A waited 30..100, handed it by B; C waited 60..300,
        // previous owner A, whose entry was at Cache.get. Blame: render held it 40..100 (60 of A's wait,
        // 40 of C's), Cache.get 100..300 (200 of C's): Cache.get wins.
        List<String> renderEntry = List.of("java.util.Hashtable.put:480", "com.shop.Report.render:33");
        LockRecording rec = recording(List.of(), List.of(), List.of(
                new MonitorEnter(B, "java.util.Hashtable", 0xabc, 10, 40, null, renderEntry),
                new MonitorEnter(A, "java.util.Hashtable", 0xabc, 30, 100, B, CACHE),
                new MonitorEnter(C, "java.util.Hashtable", 0xabc, 60, 300, A, CACHE)));
        List<ContendedLock> locks = contendedLocks(rec);
        assertThat(locks).hasSize(1);
        ContendedLock l = locks.get(0);
        assertThat(l.kind()).isEqualTo(LockKind.MONITOR);
        assertThat(l.threadTimeNanos()).isEqualTo(30 + 70 + 240);
        assertThat(l.waits()).isEqualTo(3);
        assertThat(l.site()).isEqualTo("java.util.Hashtable.get:385");
        assertThat(l.ownerSource()).isEqualTo("acquisition-site");
        assertThat(l.ownerFrames()).isEqualTo(CACHE);
    }

    @Test
    void monitorWithoutKnownOwnerChainFallsBackToTheWaitersSite() {
        LockRecording rec = recording(List.of(), List.of(), List.of(
                new MonitorEnter(A, "java.lang.Object", 0x1, 0, 50, B, List.of("com.shop.Global.critical:9"))));
        ContendedLock l = contendedLocks(rec).get(0);
        assertThat(l.ownerSource()).isEqualTo("waiter-site");
        assertThat(l.ownerFrames()).containsExactly("com.shop.Global.critical:9");
    }
}
