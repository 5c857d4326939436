package dev.lockscope.report.rules;

import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.OwnerChain;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.ParkTally;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RemediesTest {
    private static final ThreadRef A = new ThreadRef(1, 1001, "a");
    private static final ThreadRef B = new ThreadRef(2, 1002, "b");

    private static LockMetrics lock(LockKind kind, String cls, List<String> first) {
        return new LockMetrics(kind, cls, "1", "a", first, ParkTally.empty(0).park(0).unpark(5), 10);
    }

    private static BlameRow row(LockMetrics l, List<String> owner, OwnerChain chain, List<String> inside) {
        return new BlameRow(l.id(), A, l.firstFrames(), B, owner, chain, inside, 1_000_000L, 1);
    }

    @Test
    void aLoaderInsideComputeIsToLoadAsynchronously() {
        LockMetrics bin = lock(LockKind.MONITOR, "java.util.concurrent.ConcurrentHashMap$Node",
                List.of("java.util.concurrent.ConcurrentHashMap.compute:1932", "com.example.Cache.get:10"));
        List<BlameRow> blame = List.of(row(bin, List.of("java.util.concurrent.ConcurrentHashMap.compute:1940"), OwnerChain.SAMPLED,
                List.of("java.lang.Thread.sleep:-1", "com.example.Loader.slowLoad:5")));
        assertThat(LockSentence.remedy(bin, blame)).isEqualTo("What to change: the holders' code runs inside "
                + "ConcurrentHashMap.compute, under the map bin's lock, while the other callers for that key wait: load "
                + "asynchronously (Caffeine's AsyncLoadingCache or refreshAfterWrite) or make `Loader.slowLoad` faster.");
        // the same lock with no code of the holders' inside the hold: nothing to say
        assertThat(LockSentence.remedy(bin, List.of(row(bin, List.of("java.util.concurrent.ConcurrentHashMap.compute:1940"),
                OwnerChain.SAMPLED, List.of())))).isNull();
    }

    @Test
    void hsqldbsTableLocksUntilCommitAreToLockRows() {
        LockMetrics latch = lock(LockKind.PARK, "org.hsqldb.lib.CountUpDownLatch$Sync", List.of("org.hsqldb.lib.CountUpDownLatch.await:80"));
        List<BlameRow> blame = List.of(row(latch, List.of("org.hsqldb.lib.CountUpDownLatch$Sync.setCount:40",
                "org.hsqldb.TransactionManagerCommon.resetLatches:300", "org.hsqldb.TransactionManagerCommon.endTransactionTPL:200",
                "org.hsqldb.Session.commit:100"), OwnerChain.NO_OWNER, List.of()));
        assertThat(LockSentence.remedy(latch, blame)).startsWith("What to change: HSQLDB's LOCKS mode locks whole tables until commit: "
                + "`SET DATABASE TRANSACTION CONTROL MVCC`");
        // the same latch released elsewhere than by a transaction's end: not this rule
        assertThat(LockSentence.remedy(latch, List.of(row(latch, List.of("org.hsqldb.lib.CountUpDownLatch$Sync.setCount:40",
                "org.hsqldb.Session.close:10"), OwnerChain.NO_OWNER, List.of())))).isNull();
    }

    @Test
    void anExhaustedPoolAndALoggersAppenderAndAPlainMap() {
        LockMetrics pool = lock(LockKind.PARK, "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject",
                List.of("org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst:1324",
                        "org.apache.commons.pool2.impl.GenericObjectPool.borrowObject:300"));
        assertThat(LockSentence.remedy(pool, List.of())).startsWith("What to change: the pool's objects were all borrowed while up to 1 thread waited");
        LockMetrics appender = lock(LockKind.MONITOR, "org.apache.logging.log4j.core.appender.FileManager",
                List.of("org.apache.logging.log4j.core.appender.OutputStreamManager.writeBytes:366"));
        assertThat(LockSentence.remedy(appender, List.of())).contains("an asynchronous appender");
        LockMetrics global = lock(LockKind.MONITOR, "com.example.Registry", List.of("com.example.Registry.lookup:12"));
        assertThat(LockSentence.remedy(global, List.of(row(global, List.of("com.example.Registry.lookup:14"), OwnerChain.SAMPLED,
                List.of("java.util.HashMap.getNode:570", "java.util.HashMap.get:556"))))).contains("a ConcurrentHashMap");
        assertThat(LockSentence.remedy(global, List.of(row(global, List.of("com.example.Registry.lookup:14"), OwnerChain.SAMPLED,
                List.of("com.example.Registry.compute:20"))))).as("no rule applies").isNull();
    }
}
