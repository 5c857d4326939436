package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LockTableTest {

    private static LockMetrics lock(LockKind kind, String className, String hash, long parkNanos, List<String> frames) {
        ParkTally t = ParkTally.empty(0).park(0).park(1).unpark(parkNanos).unpark(parkNanos + 1);
        return new LockMetrics(kind, className, hash, "worker-1", frames, t, 1_000_000);
    }

    @Test
    void everyLineFitsOneHundredColumnsEvenWithLongNamesAndHugeNumbers() {
        String longClass = "com.example.some.very.deeply.nested.application.pkg.concurrency.internal."
                + "SomeRatherLongSynchronizerName$InnerSyncWithAnotherLongName";
        List<String> frames = List.of(
                "java.util.concurrent.locks.LockSupport.park:211",
                longClass + ".lambda$acquireWithAVeryLongMethodNameThatGoesOnAndOn$17:1234",
                "x".repeat(150) + ".m:1");
        LockMetrics huge = new LockMetrics(LockKind.PARK, longClass, "7fffffff", "t".repeat(120), frames,
                ParkTally.empty(0).park(0).park(0).park(0).unpark(Long.MAX_VALUE / 8), 1);
        String text = LockTable.render("lockscope: test", List.of(huge, lock(LockKind.MONITOR, "java.lang.Object",
                "7f00aa", 5_000_000, List.of("a.B.c:3"))), 0, List.of("note " + "n".repeat(200)));

        assertThat(text.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(LockTable.WIDTH));
        // the informative end of a long frame survives
        assertThat(text).contains("otherLongName.lambda$acquireWithAVeryLongMethodNameThatGoesOnAndOn$17:1234");
        assertThat(text).contains("at java.util.concurrent.locks.LockSupport.park:211");
    }

    /** A note is a sentence: wrapped at spaces, never cut off (the sampled-parks note is 170 characters). */
    @Test
    void longNotesWrapAndKeepEveryWord() {
        String note = "short parks sampled by the agent (1,234 recorded parks under its sampleBelow, or idle ones under"
                + " 10 ms, each standing for 1/p like it): blame and profiles estimate them; this table is exact, and"
                + " this sentence goes on to need a third line";
        for (String text : List.of(LockTable.render("t", List.of(), 0, List.of(note, "second note")),
                LockTable.renderShort("t", List.of(lock(LockKind.PARK, "a.B", "1", 5, List.of("a.B.c:1"))), 0,
                        List.of(note, "second note"), 10, ""))) {
            List<String> lines = text.lines().toList();
            assertThat(lines).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(LockTable.WIDTH));
            assertThat(lines.get(1)).startsWith("  short parks sampled");
            assertThat(lines.get(2)).startsWith("    ");
            assertThat(lines.get(3)).startsWith("    ");
            assertThat(lines.get(4)).isEqualTo("  second note");
            assertThat(String.join(" ", lines.subList(1, 4).stream().map(String::strip).toList())).isEqualTo(note);
        }
    }

    @Test
    void abbreviateShortensPackagesFirstThenCutsTheStart() {
        assertThat(LockTable.abbreviate("java.util.concurrent.locks.LockSupport.park:211", 100))
                .isEqualTo("java.util.concurrent.locks.LockSupport.park:211");
        assertThat(LockTable.abbreviate("java.util.concurrent.locks.LockSupport.park:211", 35))
                .isEqualTo("j.u.c.locks.LockSupport.park:211");
        assertThat(LockTable.abbreviate("java.util.concurrent.locks.LockSupport.park:211", 20))
                .isEqualTo("...kSupport.park:211").hasSize(20);
    }

    @Test
    void showsAllFifteenMetricsAndMonitorWording() {
        String text = LockTable.render("title", List.of(lock(LockKind.MONITOR, "java.lang.Object", "abc",
                3_000_000, List.of("a.B.c:3"))), 0, List.of());
        assertThat(text).contains("monitor Object@abc\n    lock java.lang.Object @abc", "first blocked by \"worker-1\"", "at a.B.c:3",
                "times blocked 2, blocked now 0, peak blocked 2", "thread-time", "real-time",
                "avg block time", "avg hold time", "%real-time", "%thread-time", "%real-life-time",
                "%thread-life-time");
    }

    @Test
    void locksUnderTheDetailShareKeepTheirRowButNotTheirDetails() {
        LockMetrics big = lock(LockKind.PARK, "com.example.Big", "b1", 1_000_000_000L, List.of("a.Big.hold:1"));
        LockMetrics small = lock(LockKind.MONITOR, "com.example.Small", "s1", 1_000_000L, List.of("a.Small.hold:2"));
        String text = LockTable.render("t", List.of(big, small), 0, List.of(), 0.01);
        assertThat(text).contains("park Big@b1\n    lock com.example.Big @b1", "at a.Big.hold:1", "Small@s1")
                .doesNotContain("] monitor Small@s1", "at a.Small.hold:2")
                .contains("(1 lock under 1.00% of all waiting: no details here; JSON and HTML have them)");
        assertThat(LockTable.render("t", List.of(big, small), 0, List.of())).contains("] monitor Small@s1");
    }

    /** A row under a share of the wall time has no details either (Jetty's class-initialisation waits, 0.3% each). */
    @Test
    void locksUnderTheDetailShareOfWallTimeKeepTheirRowButNotTheirDetails() {
        // over 1 ms of run: the lock() helper's tally has real-time parkNanos + 1 ns of 1 ms
        LockMetrics most = lock(LockKind.PARK, "com.example.Big", "b1", 900_000L, List.of("a.Big.hold:1"));
        LockMetrics tiny = lock(LockKind.MONITOR, "com.example.Small", "s1", 2_000L, List.of("a.Small.hold:2"));
        String text = LockTable.render("t", List.of(most, tiny), 0, List.of(), 0, LockTable.FINDING_PCT);
        assertThat(text).contains("park Big@b1").doesNotContain("] monitor Small@s1")
                .contains("(1 lock under 0.00% of all waiting or 0.50% of wall time: no details here; JSON and HTML have them)");
    }

    /** The largest contention under 5% of wall time is said plainly, by the table's label and its share. */
    @Test
    void aSmallLargestContentionIsSaidInTheFirstLine() {
        LockMetrics small = lock(LockKind.MONITOR, "com.example.Small", "s1", 8_000L, List.of("a.Small.hold:2"));
        LockMetrics smaller = lock(LockKind.PARK, "com.example.Tiny", "t1", 1_000L, List.of("a.Tiny.hold:3"));
        assertThat(LockTable.noSignificantContention(List.of(smaller, small), LockLabels.of(List.of(small, smaller))))
                .isEqualTo("no significant lock contention: the largest, Small@s1, cost 0.8% of wall time "
                        + "(a finding needs 5%)");
    }

    /** At or over the threshold there is no such line; a row with no stack never counts as the largest. */
    @Test
    void aSignificantContentionHasNoFirstLineAndAStacklessRowIsNotOne() {
        LockMetrics big = lock(LockKind.PARK, "com.example.Big", "b1", 100_000L, List.of("a.Big.hold:1"));
        assertThat(LockTable.noSignificantContention(List.of(big), LockLabels.of(List.of(big)))).isEmpty();
        LockMetrics stackless = lock(LockKind.PARK, "java.util.concurrent.Semaphore$NonfairSync", "n1", 900_000L, List.of());
        LockMetrics small = lock(LockKind.MONITOR, "com.example.Small", "s1", 8_000L, List.of("a.Small.hold:2"));
        assertThat(LockTable.noSignificantContention(List.of(stackless, small), LockLabels.of(List.of(stackless, small))))
                .startsWith("no significant lock contention: the largest, Small@s1, cost 0.8%");
        assertThat(LockTable.noSignificantContention(List.of(stackless), LockLabels.of(List.of(stackless))))
                .isEqualTo("no significant lock contention: no contended lock with a stack");
    }

    /** A lock only a pool's workers waited for (its first waiter at an idle place) leaves the exit table, in a note. */
    @Test
    void idleRowsLeaveTheTableInANote() {
        LockMetrics pool = lock(LockKind.PARK, "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject", "q1",
                1_000_000_000L, List.of("java.util.concurrent.LinkedBlockingQueue.take:435",
                        "java.util.concurrent.ThreadPoolExecutor.getTask:1070"));
        LockMetrics hot = lock(LockKind.MONITOR, "com.example.Hot", "h1", 500_000_000L, List.of("a.Hot.hold:2"));
        List<String> notes = new java.util.ArrayList<>();
        assertThat(LockTable.withoutIdle(List.of(pool, hot), notes)).containsExactly(hot);
        assertThat(notes).containsExactly("1 lock only idle threads waited for (workers waiting for work) left out");
    }

    @Test
    void emptyTableSaysSoAndEchoesThePrintThreshold() {
        assertThat(LockTable.render("t", List.of(), 5, List.of())).contains("no contended locks with at least 5 parks");
    }

    /**
     * JFR's periodic task and lockscope's own thread are the profiler's contention: no row, one note
     * counting their waits; the application's lock through the same JDK classes keeps its row, and so does
     * a dispatcher of the JDK's HTTP server (lockscope serves its metrics itself).
     */
    /** A wait JFR recorded without a stack is the profiler's when one of its threads waited, and only then. */
    @Test
    void aStacklessWaitOfTheProfilersThreadIsItsOwn() {
        ParkTally t = ParkTally.empty(0).park(0).unpark(30_000);
        LockMetrics warmUp = new LockMetrics(LockKind.MONITOR, "java.lang.Thread", "7f00", "lockscope-warm-up", List.of(), t, 1_000_000);
        LockMetrics jfr = new LockMetrics(LockKind.MONITOR, "java.lang.Object", "7f01", "JFR Periodic Tasks", List.of(), t, 1_000_000);
        LockMetrics main = new LockMetrics(LockKind.MONITOR, "java.lang.Thread", "7f02", "main", List.of(), t, 1_000_000);
        assertThat(LockTable.isProfilersOwn(warmUp)).isTrue();
        assertThat(LockTable.isProfilersOwn(jfr)).isTrue();
        assertThat(LockTable.isProfilersOwn(main)).isFalse();
        // with a stack, the stack decides: the application's code asked for it
        LockMetrics asked = new LockMetrics(LockKind.MONITOR, "java.lang.Object", "7f03", "lockscope-warm-up",
                List.of("com.example.Cache.get:12"), t, 1_000_000);
        assertThat(LockTable.isProfilersOwn(asked)).isFalse();
    }

    @Test
    void theProfilersOwnLocksAreANoteNotRows() {
        LockMetrics jfr = lock(LockKind.MONITOR, "java.lang.Object", "at jdk.jfr.internal.PlatformRecorder.periodicTask:499", 5,
                List.of("jdk.jfr.internal.PlatformRecorder.periodicTask:499", "jdk.jfr.internal.PlatformRecorder.lambda$startDiskMonitor$1:433",
                        "java.lang.Thread.run:840"));
        LockMetrics http = lock(LockKind.MONITOR, "sun.net.httpserver.ServerImpl", "at sun.net.httpserver.ServerImpl$Dispatcher.run:400", 5,
                List.of("sun.net.httpserver.ServerImpl$Dispatcher.run:400", "java.lang.Thread.run:840"));
        LockMetrics registry = lock(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync", "at java.lang.ref.ReferenceQueue.poll:1", 5,
                List.of("java.util.concurrent.locks.LockSupport.park", "java.lang.ref.ReferenceQueue.poll:1",
                        "dev.lockscope.agent.boot.BlockerRegistry.run:90", "java.lang.Thread.run:840"));
        LockMetrics app = lock(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync", "at com.example.Cache.get:12", 5,
                List.of("java.util.concurrent.locks.LockSupport.park", "java.util.concurrent.locks.ReentrantLock.lock:322",
                        "com.example.Cache.get:12", "jdk.jfr.internal.SomethingOuter.call:1"));
        List<String> notes = new java.util.ArrayList<>();
        assertThat(LockTable.withoutProfilersOwn(List.of(jfr, app, http, registry), notes)).containsExactly(app, http);
        assertThat(notes).containsExactly("4 waits on the profiler's own locks (JFR's, lockscope's, its metrics server's) left out");

        List<String> none = new java.util.ArrayList<>();
        assertThat(LockTable.withoutProfilersOwn(List.of(app), none)).containsExactly(app);
        assertThat(none).isEmpty();
        String table = LockTable.render("t", LockTable.withoutProfilersOwn(List.of(jfr, app), notes), 0, notes);
        assertThat(table).doesNotContain("PlatformRecorder").contains("com.example.Cache.get:12", "on the profiler's own locks");
    }
}
