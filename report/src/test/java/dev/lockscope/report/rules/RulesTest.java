package dev.lockscope.report.rules;

import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.blame.OwnerChain;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.report.export.Recordings;
import dev.lockscope.report.model.BlameKeys;
import dev.lockscope.report.model.Report;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RulesTest {
    private final Report report = Recordings.report(Recordings.small());

    private RuleResult result(String rule) {
        return report.rules().stream().filter(r -> r.rule().equals(rule)).findFirst().orElseThrow();
    }

    @Test
    void theBottleneckNamesLockWaiterMethodThreadsAndWallTimeShare() {
        // the ReentrantLock: parks 0..60 and 70..100 ms of 200 ms: 45% real time; 110 ms in all; no unparks recorded
        RuleResult r = result("park-contention");
        assertThat(r.message()).isEqualTo("`ReentrantLock at Inventory.reserve:42` blocked 2 threads for 45% of wall time "
                + "(110 ms of waiting in all); who held it meanwhile is not known. Contention by rule `lock-acquire`.");
        assertThat(r.score()).isEqualTo(45.0);
        assertThat(r.severity()).isEqualTo(Severity.INFO);
        assertThat(r.subject()).isEqualTo("ReentrantLock at Inventory.reserve:42");
    }

    @Test
    void theMonitorRuleNamesWhereTheOwnerHeldIt() {
        // C blocked 20..25 ms on Cache, entered after worker-a (previousOwner), which was parked in
        // Inventory.reserve meanwhile: it held the monitor, perhaps there (nobody was seen entering it there)
        assertThat(result("monitor-contention").message()).isEqualTo("The monitor of `Cache at Cache.get:17` blocked 1 thread "
                + "for 3% of wall time (5.00 ms of waiting in all); its owner was seen in `Inventory.reserve` 100% of that time "
                + "(not in a method seen taking it). Contention by rule `monitor-enter`.");
        assertThat(result("monitor-contention").severity()).isEqualTo(Severity.OK);
    }

    @Test
    void findingsShowEachLockOnceHighestScoreFirst() {
        // one finding per lock row, the rule naming its kind, the larger share of wall time first
        assertThat(report.findings()).extracting(RuleResult::rule).containsExactly("park-contention", "monitor-contention");
        assertThat(report.findings()).extracting(RuleResult::score).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    }

    @Test
    void aRuleWhoseEventsAreMissingSaysWhichAndIsNotScored() {
        Report r = Recordings.report(withEvents(true));
        RuleResult monitor = r.rules().stream().filter(x -> x.rule().equals("monitor-contention")).findFirst().orElseThrow();
        assertThat(monitor.severity()).isEqualTo(Severity.NA);
        assertThat(monitor.score()).isZero();
        assertThat(monitor.missingEvents()).containsExactly("jdk.JavaMonitorEnter");
        assertThat(r.findings()).extracting(RuleResult::rule).containsExactly("park-contention");
    }

    @Test
    void withNoWaitAtAllTheBottleneckRuleSaysSo() {
        Report r = Recordings.report(withEvents(false));
        assertThat(r.findings()).extracting(RuleResult::message).containsExactly(
                "Not evaluated: the recording has no lockscope.Park or lockscope.LockSummary or jdk.JavaMonitorEnter or jdk.JavaMonitorWait events.");
    }

    /** The bottleneck rule on the small recording's contention with these blame rows. */
    private RuleResult bottleneck(List<BlameRow> rows) {
        BlameSummary blame = new BlameSummary(rows.stream().mapToLong(BlameRow::nanos).sum(), rows.stream().mapToLong(BlameRow::count).sum(),
                Aspect.DEFAULT, false, BlameKeys.tree(rows, Aspect.DEFAULT, false, report.contention().rowLabels()), rows, List.of(), List.of());
        return Rules.ALL.get(0).evaluate(new RuleInput(report.contention(), blame));
    }

    @Test
    void theBottleneckNamesWhereTheLockWasHeldWhenOwnersHaveChains() {
        LockId lock = LockId.blocker(Recordings.LOCK, 0xabc);
        ThreadRef auditor = new ThreadRef(30, 1030, "auditor");
        List<String> waiter = List.of("com.example.Inventory.reserve:42");
        List<BlameRow> rows = List.of(
                new BlameRow(lock, Recordings.A, waiter, auditor, List.of("com.example.Inventory.audit:77"), OwnerChain.EXACT, List.of(), 60 * Recordings.MS, 2),
                new BlameRow(lock, Recordings.B, waiter, auditor, List.of("com.example.Inventory.restock:90"), OwnerChain.EXACT, List.of(), 50 * Recordings.MS, 1));
        RuleResult r = bottleneck(rows);
        assertThat(r.message()).endsWith("; it was held in `Inventory.audit` 55% of that time. Contention by rule `lock-acquire`.");
    }

    @Test
    void theBottleneckNamesWhatTheHoldersDidInsideTheHold() {
        // Caffeine's shape: the bin's monitor taken in doComputeIfAbsent, the holders inside it in the loader
        LockId lock = LockId.blocker(Recordings.LOCK, 0xabc);
        ThreadRef holder = new ThreadRef(30, 1030, "holder");
        List<String> waiter = List.of("java.util.concurrent.ConcurrentHashMap.compute:1932", "com.example.Cache.get:10");
        List<String> held = List.of("java.util.concurrent.ConcurrentHashMap.compute:1940", "com.example.Cache.get:10");
        List<BlameRow> rows = List.of(
                new BlameRow(lock, Recordings.A, waiter, holder, held, OwnerChain.SAMPLED,
                        List.of("java.lang.Thread.sleep:-1", "com.example.Loader.slowLoad:5", "com.example.Cache.lambda$get$0:11"), 90 * Recordings.MS, 9),
                new BlameRow(lock, Recordings.B, waiter, holder, held, OwnerChain.SAMPLED,
                        List.of("com.example.Loader.slowLoad:7", "com.example.Cache.lambda$get$0:11"), 5 * Recordings.MS, 1),
                new BlameRow(lock, Recordings.B, waiter, holder, held, OwnerChain.ACQUISITION_SITE, List.of(), 5 * Recordings.MS, 1));
        RuleResult r = bottleneck(rows);
        assertThat(r.message()).contains("; its holders were in `Loader.slowLoad` 95% of that time, holding it in `Cache.get`.");
    }

    @Test
    void aBlockerWithoutAnOwnerNamesTheCodeThatReleasedIt() {
        // HSQLDB's shape: sessions wait on a latch that another session's commit counts down, through the latch's own code
        LockId lock = LockId.blocker(Recordings.LOCK, 0xabc);
        ThreadRef committer = new ThreadRef(30, 1030, "committer");
        List<String> waiter = List.of("org.hsqldb.lib.CountUpDownLatch.await:80", "org.hsqldb.Session.executeCompiledStatement:10");
        List<String> released = List.of("java.util.concurrent.locks.LockSupport.unpark:-1", "org.hsqldb.lib.CountUpDownLatch$Sync.setCount:40",
                "org.hsqldb.lib.CountUpDownLatch.setCount:20", "org.hsqldb.TransactionManager2PL.resetLatches:300",
                "org.hsqldb.TransactionManager2PL.endTransactionTPL:200", "org.hsqldb.Session.commit:100", "com.example.Orders.place:12");
        List<BlameRow> rows = List.of(
                new BlameRow(lock, Recordings.A, waiter, committer, released, OwnerChain.NO_OWNER, List.of(), 97 * Recordings.MS, 9),
                new BlameRow(lock, Recordings.B, waiter, ThreadRef.UNKNOWN, List.of(), OwnerChain.UNKNOWN, List.of(), 3 * Recordings.MS, 1));
        RuleResult r = bottleneck(rows);
        assertThat(r.message()).contains("; they waited for a release, made in `Session.commit > … > TransactionManager2PL.resetLatches` 97% of that time.")
                .doesNotContain("held")
                // not HSQLDB's latch class here (the test recording's lock): no rule applies, no advice
                .doesNotContain("What to change");
    }

    @Test
    void theReleaserIsTheCodeOutsideTheBlockersMachineryAndItsLibrarysEntryWhenAnotherCalledIt() {
        // a pool's borrower, where it had waited for the object it later gave back: commons-pool's frames, then the
        // application's own, through a lambda's hidden class, to the thread's run loop
        List<String> borrowed = List.of("java.util.concurrent.locks.LockSupport.park:-1",
                "org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst:1324", "org.apache.commons.pool2.impl.GenericObjectPool.borrowObject:300",
                "com.example.Jobs.lambda$main$5:40", "com.example.Jobs$$Lambda$123+0x00007f981c09b720.1261153343.run",
                "com.example.Jobs.loop:60", "java.lang.Thread.run:840");
        assertThat(LockSentence.releaser(borrowed)).as("the application's own code, not its run loop").isEqualTo("Jobs.lambda$main$5");
        assertThat(LockSentence.releaser(List.of("org.hsqldb.lib.CountUpDownLatch.setCount:20", "org.hsqldb.Session.commit:100",
                "org.hsqldb.jdbc.JDBCConnection.commit:7", "com.example.Orders.place:12")))
                .isEqualTo("JDBCConnection.commit > … > Session.commit");
        assertThat(LockSentence.releaser(List.of("java.lang.Thread.run:840"))).isNull();
    }

    /**
     * Issue 40: a finding per lock row, not per kind: a second ReentrantLock (another site) as costly as the first is a
     * finding too; a row without a stack (JFR recorded the monitor's waits without one) never is, however long.
     */
    @Test
    void everyContendedRowWithAStackIsAFindingRankedByItsShareOfWallTime() {
        LockRecording small = Recordings.small();
        List<String> ledger = List.of("java.util.concurrent.locks.LockSupport.park",
                "java.util.concurrent.locks.ReentrantLock.lock:322", "com.example.Ledger.post:9", "java.lang.Thread.run:840");
        List<ParkWait> parks = new java.util.ArrayList<>(small.parks());
        parks.add(new ParkWait(Recordings.C, Recordings.LOCK, 0xdef, Recordings.START + 100 * Recordings.MS,
                Recordings.START + 180 * Recordings.MS, 4, 4, false, 0, null, 0, 0, ledger));
        List<MonitorEnter> enters = new java.util.ArrayList<>(small.monitorEnters());
        enters.add(new MonitorEnter(Recordings.B, "java.lang.Object", 0x7f10, Recordings.START + 100 * Recordings.MS,
                Recordings.START + 199 * Recordings.MS, Recordings.A, List.of()));
        Report r = Recordings.report(new LockRecording(small.source(), small.startNanos(), small.endNanos(), small.threads(),
                parks, small.unparks(), enters, small.monitorWaits(), small.cpuSamples(), small.sleeps()));
        assertThat(r.findings()).extracting(RuleResult::subject).containsExactly("ReentrantLock at Inventory.reserve:42",
                "ReentrantLock at Ledger.post:9", "Cache at Cache.get:17");
        assertThat(r.findings()).extracting(RuleResult::score).containsExactly(45.0, 40.0, 2.5);
        assertThat(r.findings()).extracting(RuleResult::rule).containsExactly("park-contention", "park-contention",
                "monitor-contention");
    }

    @Test
    void aLockWaitedForATinyShareOfTheTimeIsNoFinding() {
        // the small recording's 110 ms of parks in 1,000 s: 0.01% of the wall time, under LockTable.FINDING_PCT
        LockRecording small = Recordings.small();
        LockRecording longer = new LockRecording(small.source(), small.startNanos(), small.startNanos() + 1_000_000_000_000L,
                small.threads(), small.parks(), small.unparks(), List.of(), List.of(), List.of(), List.of());
        Report r = Recordings.report(longer);
        assertThat(r.findings()).extracting(RuleResult::message).containsExactly("No contention in this recording: no thread "
                + "waited for a lock that another thread held for long enough to matter: the largest, `"
                + "ReentrantLock at Inventory.reserve:42`, had waiters 0.01% of wall time (110 ms of waiting in all).");
        assertThat(r.findings().get(0).score()).isZero();
    }

    /** The small recording with its parks (or nothing), no monitor events, no samples, no sleeps. */
    private static LockRecording withEvents(boolean parks) {
        LockRecording small = Recordings.small();
        return new LockRecording(small.source(), small.startNanos(), small.endNanos(), small.threads(),
                parks ? small.parks() : List.of(), parks ? small.unparks() : List.of(), List.of(), List.of(), List.of(), List.of());
    }

    @Test
    void oneThreadAtATimeIsNotUpTo1Threads() {
        var lock = report.contention().locks().get(0);
        var single = new dev.lockscope.core.LockMetrics(lock.kind(), lock.className(), lock.identityHash(), lock.firstThread(),
                lock.firstFrames(), dev.lockscope.core.ParkTally.empty(0).park(0).unpark(5), lock.totalExecutionNanos());
        assertThat(LockSentence.of(single, dev.lockscope.core.LockLabels.of(single), List.of(), List.of())).contains("blocked 1 thread at a time").doesNotContain("1 threads");
    }

    @Test
    void appMethodSkipsRuntimeFrames() {
        assertThat(LockSentence.appMethod(List.of("java.util.concurrent.locks.LockSupport.park",
                "com.example.Inventory$Item.reserve:42"))).isEqualTo("Inventory$Item.reserve");
    }
}
