package dev.lockscope.e2e;

import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameAnalysis;
import dev.lockscope.analysis.blame.BlameNode;
import dev.lockscope.analysis.blame.BlameResult;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.blame.BlameTree;
import dev.lockscope.analysis.blame.ChainView;
import dev.lockscope.analysis.blame.Contention;
import dev.lockscope.analysis.blame.OwnerChain;
import dev.lockscope.analysis.blame.WaitRecord;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.core.LockKind;
import dev.lockscope.report.blame.BlameJsonReport;
import dev.lockscope.report.blame.BlameTextReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Owner blame on the demo scenarios with known answers (issue 4 acceptance), each in a child JVM
 * under the agent. A timed scenario is first checked to have run as scripted (its own marks within a
 * few ms of the script; otherwise it is run again, a busy machine stretches sleeps and wake-ups); then
 * blame must match the timeline the workload measured within ±5 ms. A release is known to lie between
 * the owner's marks just before and just after unlocking, so expectations are windows.
 */
class BlameE2EIT {
    private static final double EXACT_MS = 5;
    /** How far a busy machine may stretch the script (thread starts, sleeps) for the run to still count. */
    private static final double SCRIPT_SLACK_MS = 20;

    private static void assertWindow(String what, double actualMs, double lowMs, double highMs) {
        assertThat(actualMs).as("%s (expected %.1f..%.1f ms ± %.0f)", what, lowMs, highMs, EXACT_MS)
                .isBetween(lowMs - EXACT_MS, highMs + EXACT_MS);
    }

    /**
     * Blame of {@code waiter} on {@code owner} must span from the waiter's request to the owner's release.
     * The release is seen when the next owner {@code next} gets the lock (monitors) or when the owner
     * unparks a successor, which it does before its unlock returns (parks; a barger may already hold the
     * lock by then).
     */
    private static void assertBlamedUntilRelease(ScenarioRunner.Run run, String waiter, String owner, String next) {
        TruthLog t = run.truth();
        assertWindow(waiter + " on " + owner, Blamed.ms(run.blame(), waiter, owner), t.ms(waiter, "request", owner, "release"),
                Math.max(t.ms(waiter, "request", next, "acquired"), t.ms(waiter, "request", owner, "released")));
    }

    /**
     * Blame of {@code waiter} on {@code owner}, who got the lock from {@code previous}: from the previous
     * owner's release to this owner's release (a successor that is still waking up has the lock reserved).
     */
    private static void assertBlamedBetweenReleases(ScenarioRunner.Run run, String waiter, String previous, String owner,
                                                    double notParkedMs) {
        TruthLog t = run.truth();
        assertWindow(waiter + " on " + owner, Blamed.ms(run.blame(), waiter, owner),
                t.ms(previous, "released", owner, "release") - notParkedMs, t.ms(previous, "release", owner, "released"));
    }

    /** Hofer Fig. 4.4: T2's 90 ms on T1; T3 ≈ 80 ms on T1 and ≈ 50 ms on the first waiter served. */
    @ParameterizedTest
    @ValueSource(strings = {"sync", "juc"})
    void fig44(String kind) throws Exception {
        ScenarioRunner.Run run = ScenarioRunner.runAsScripted("blame-fig44-" + kind, 0, t -> {
            for (int round = 1; round <= 3; round++) {
                String p = "fig44-r" + round + "-";
                if (!t.near(p + "T1", "acquired", p + "T2", "request", 10, SCRIPT_SLACK_MS)
                        || !t.near(p + "T1", "acquired", p + "T3", "request", 20, SCRIPT_SLACK_MS)
                        || !t.near(p + "T1", "acquired", p + "T1", "release", 100, SCRIPT_SLACK_MS)
                        || t.at(p + "T2", "request") >= t.at(p + "T3", "request")) {
                    return false;
                }
            }
            return true;
        });
        for (int round = 1; round <= 3; round++) {
            String p = "fig44-r" + round + "-";
            TruthLog t = run.truth();
            boolean t2First = t.at(p + "T2", "acquired") < t.at(p + "T3", "acquired");
            if (kind.equals("juc")) {
                assertThat(t2First).as("ReentrantLock serves its queue in order").isTrue();
            }
            String first = t2First ? p + "T2" : p + "T3";
            String second = t2First ? p + "T3" : p + "T2";
            assertBlamedUntilRelease(run, first, p + "T1", first);   // ≈ 90 ms (T2)
            assertBlamedUntilRelease(run, second, p + "T1", first);  // ≈ 80 ms (T3)
            // ≈ 50 ms: from T1's release (park) or the first's acquisition (monitor) to the second's acquisition
            assertWindow(second + " on " + first, Blamed.ms(run.blame(), second, first),
                    t.ms(first, "acquired", first, "release"), t.ms(p + "T1", "release", second, "acquired"));
            assertThat(Blamed.ms(run.blame(), first, second)).as("the first waiter is never blamed on the second").isZero();
        }
        // monitors: from what the owners did while the others waited (they slept holding it)
        OwnerChain waiterChains = kind.equals("juc") ? OwnerChain.EXACT : OwnerChain.SAMPLED;
        assertThat(run.blame().contentions()).filteredOn(c -> c.cause().owner().name().matches("fig44-r\\d-T[23]"))
                .isNotEmpty().allSatisfy(c -> assertThat(c.cause().chain()).isEqualTo(waiterChains));
    }

    /** Hofer's demo: callers wait in queryByArticleNo, the lock is held in queryByName. */
    @ParameterizedTest
    @ValueSource(strings = {"sync", "juc"})
    void articleDemoBlamesQueryByName(String kind) throws Exception {
        // as scripted: the lookups really are short next to the name searches (a busy machine stretches them)
        ScenarioRunner.Run run = ScenarioRunner.runUntil("blame-article-" + kind, 2, r ->
                r.truth().total("hold-queryByArticleNo") < 0.06 * r.truth().total("hold-queryByName"));
        BlameNode byOwner = BlameTree.build(run.blame().contentions(), List.of(Aspect.OWNER_METHOD), ChainView.FILTERED);
        BlameNode byWaiter = BlameTree.build(run.blame().contentions(), List.of(Aspect.WAITER_METHOD), ChainView.FILTERED);
        double byName = Blamed.share(byOwner, "ArticleService.queryByName");
        // no chain: "(unknown)" and the named causes without one ("(hand-off gap)", ...)
        double unknown = byOwner.children().stream().filter(n -> n.key().startsWith("(")).mapToDouble(BlameNode::share).sum();

        assertThat(Blamed.share(byWaiter, "ArticleService.queryByArticleNo")).as("waiting in queryByArticleNo").isGreaterThan(0.9);
        // Of the wait blamed on an owner chain. The rest: hand-off gaps for the ReentrantLock; for the monitor,
        // owners of which nothing was recorded while the caller waited (a lookup holds it parked without a blocker).
        assertThat(byName / (1 - unknown)).as("blamed on queryByName (%.4f of all wait)", byName).isGreaterThanOrEqualTo(0.95);
        assertThat(unknown).as("unknown").isLessThan(0.10);
    }

    /** X holds 9 ms, Y 1 ms, called equally often under saturation: owner chains 90% / 10%. */
    @ParameterizedTest
    @ValueSource(strings = {"sync", "juc"})
    void calibrationSharesFollowHoldTimes(String kind) throws Exception {
        // as scripted: X really held the lock about 90% of the time (a busy machine stretches short sleeps)
        ScenarioRunner.Run run = ScenarioRunner.runUntil("blame-calibration-" + kind, 2, r ->
                Math.abs(heldShareOfX(r.truth()) - 0.90) <= 0.05);
        BlameNode byOwner = BlameTree.build(run.blame().contentions(), List.of(Aspect.OWNER_METHOD), ChainView.FILTERED);
        String suffix = kind.equals("sync") ? "Sync" : "Juc";
        double x = Blamed.share(byOwner, "CalibrationScenario.chainX" + suffix);
        double y = Blamed.share(byOwner, "CalibrationScenario.chainY" + suffix);

        // Shares among the two owner chains (the unknown rest, hand-off gaps, is small). Under saturation the
        // blame follows the time each chain held the lock: 9:1 as scripted, as measured by the workload
        // (a busy machine stretches a 1 ms sleep proportionally more than a 9 ms one).
        double measuredX = heldShareOfX(run.truth());
        assertThat(x / (x + y)).as("X share (holds: %.3f)", measuredX).isCloseTo(measuredX, within(0.03));
        assertThat(y / (x + y)).as("Y share (holds: %.3f)", 1 - measuredX).isCloseTo(1 - measuredX, within(0.03));
        assertThat(x + y).as("blamed on X or Y").isGreaterThan(0.95);
    }

    private static double heldShareOfX(TruthLog t) {
        return (double) t.total("hold-X") / (t.total("hold-X") + t.total("hold-Y"));
    }

    /** Hofer Fig. 4.6: T3 barges; T2 and T4 are blamed on T1, then T3, though T3 never unparked T4. */
    @Test
    void bargingBlamesEverySuccessiveOwner() throws Exception {
        // as scripted: T3 barged in while T2 was waking up, so T2 parked again
        ScenarioRunner.Run run = ScenarioRunner.runUntil("blame-barging-juc", 0, r -> {
            TruthLog t = r.truth();
            return t.near("barging-T1", "acquired", "barging-T2", "request", 10, SCRIPT_SLACK_MS)
                    && t.near("barging-T1", "acquired", "barging-T4", "request", 20, SCRIPT_SLACK_MS)
                    && t.at("barging-T2", "request") < t.at("barging-T4", "request")
                    && t.near("barging-T1", "acquired", "barging-T1", "release", 100, SCRIPT_SLACK_MS)
                    && t.at("barging-T3", "acquired") < t.at("barging-T2", "acquired")
                    && r.recording().parks().stream().filter(p -> p.thread().name().equals("barging-T2")).count() >= 2;
        });
        assertThat(run.recording().unparks()).noneMatch(u -> u.thread().name().equals("barging-T3")
                && u.targetName().equals("barging-T4"));

        assertBlamedUntilRelease(run, "barging-T2", "barging-T1", "barging-T3"); // ≈ 90
        assertBlamedUntilRelease(run, "barging-T4", "barging-T1", "barging-T3"); // ≈ 80
        // T2 woke up from T1's unpark, found T3 had barged in and parked again: that gap is not on T3
        double t2Unparked = Blamed.ms(run.blame(), c -> c.waiter().name().equals("barging-T2") && !c.cause().hasOwner()
                && c.firstBeginNanos() < run.truth().at("barging-T3", "release"));
        assertBlamedBetweenReleases(run, "barging-T2", "barging-T1", "barging-T3", t2Unparked); // ≈ 30
        assertBlamedBetweenReleases(run, "barging-T4", "barging-T1", "barging-T3", 0); // ≈ 30, though T3 never unparked T4
        assertBlamedBetweenReleases(run, "barging-T4", "barging-T3", "barging-T2", 0); // ≈ 10
        // on the scenario's lock: a JDK-internal monitor (a Cleaner's list, taken by string concatenation's
        // bootstrap) contended once with lockscope's own stream thread, whose stack is not recorded
        assertThat(run.blame().contentions()).filteredOn(c -> c.cause().hasOwner() && c.waiter().name().startsWith("barging-")
                        && c.lock().lockClass().startsWith("java.util.concurrent.locks.ReentrantLock"))
                .allSatisfy(c -> assertThat(c.cause().chain()).isEqualTo(OwnerChain.EXACT));
    }

    /** Writer→reader and writer→writer exact; reader→writer names the last reader only. */
    @Test
    void readWriteLock() throws Exception {
        ScenarioRunner.Run run = ScenarioRunner.runAsScripted("blame-rw-juc", 0, BlameE2EIT::asScriptedRw);
        assertBlamedUntilRelease(run, "rw-a-R1", "rw-a-W", "rw-a-R1");  // writer → reader ≈ 40
        assertBlamedUntilRelease(run, "rw-a-R2", "rw-a-W", "rw-a-R2");
        assertBlamedUntilRelease(run, "rw-b-W2", "rw-b-W1", "rw-b-W2"); // writer → writer ≈ 40
        assertBlamedUntilRelease(run, "rw-c-W", "rw-c-R2", "rw-c-W");   // readers → writer: the last reader, ≈ 50
        assertThat(Blamed.ms(run.blame(), "rw-c-W", "rw-c-R1")).as("an earlier reader cannot be seen").isZero();
    }

    private static boolean asScriptedRw(TruthLog t) {
        return t.near("rw-a-W", "acquired", "rw-a-R1", "request", 10, SCRIPT_SLACK_MS)
                        && t.near("rw-a-W", "acquired", "rw-a-R2", "request", 10, SCRIPT_SLACK_MS)
                        && t.near("rw-a-W", "acquired", "rw-a-W", "release", 50, SCRIPT_SLACK_MS)
                        && t.near("rw-b-W1", "acquired", "rw-b-W2", "request", 10, SCRIPT_SLACK_MS)
                        && t.near("rw-b-W1", "acquired", "rw-b-W1", "release", 50, SCRIPT_SLACK_MS)
                        && t.near("rw-c-R1", "acquired", "rw-c-W", "request", 10, SCRIPT_SLACK_MS)
                        && t.near("rw-c-R1", "acquired", "rw-c-R2", "release", 60, SCRIPT_SLACK_MS)
                        // R1 out before R2: a descheduled R1 released last would rightly be the one blamed
                        && t.near("rw-c-R1", "acquired", "rw-c-R1", "released", 30, SCRIPT_SLACK_MS)
                        && t.at("rw-c-R1", "released") < t.at("rw-c-R2", "release")
                        && t.at("rw-c-R2", "acquired") < t.at("rw-c-W", "request");
    }

    /** Generic analyzer: park time measured, no owner; the holder whose release woke a waiter is named. */
    @Test
    void semaphoreHasNoOwner() throws Exception {
        ScenarioRunner.Run run = ScenarioRunner.runAsScripted("blame-semaphore-juc", 0, t ->
                t.near("semaphore-holder", "acquired", "semaphore-A", "request", 10, SCRIPT_SLACK_MS)
                        && t.near("semaphore-holder", "acquired", "semaphore-holder", "release", 50, SCRIPT_SLACK_MS));
        TruthLog t = run.truth();
        for (String waiter : List.of("semaphore-A", "semaphore-B")) {
            // (JDK 25's own ThreadSleep event may add a microsecond of monitor contention: not this lock)
            List<Contention> mine = run.blame().contentions().stream().filter(c -> c.waiter().name().equals(waiter)
                    && c.lock().lockClass().equals("java.util.concurrent.Semaphore$NonfairSync")).toList();
            // no owner: named as such, with the thread whose release woke the waiter where one did
            assertThat(mine).isNotEmpty().allSatisfy(c -> assertThat(c.cause().chain()).isEqualTo(OwnerChain.NO_OWNER));
            assertThat(mine).allSatisfy(c -> assertThat(c.cause().owner().name()).isIn("?", "semaphore-holder", "semaphore-A", "semaphore-B"));
            assertThat(mine).anySatisfy(c -> assertThat(c.cause().owner().name()).isNotEqualTo(waiter));
            double parked = mine.stream().mapToLong(Contention::nanos).sum() / 1e6;
            assertWindow(waiter + " parked", parked, 0, t.ms(waiter, "request", waiter, "acquired"));
            assertThat(parked).isGreaterThan(t.ms(waiter, "request", "semaphore-holder", "release") - EXACT_MS);
        }
        assertThat(run.blame().contentions()).as("the holder's release woke the first waiter")
                .anySatisfy(c -> assertThat(c.cause().owner().name()).isEqualTo("semaphore-holder"));
    }

    /**
     * JDK code (issue 16): {@code DatagramChannel.send} from 4 threads. Its write lock's waiting has a named
     * cause: the releasing sender (exact) or the woken sender waiting for a CPU (hand-off gap), not unknown.
     */
    @Test
    void datagramSendWaitsHaveNamedCauses() throws Exception {
        ScenarioRunner.Run run = ScenarioRunner.run("blame-datagram-juc", 2, ScenarioRunner.workDir("datagram"),
                List.of("--threads", "4"));
        List<Contention> onLock = run.blame().contentions().stream()
                .filter(c -> c.lock().lockClass().startsWith("java.util.concurrent.locks.ReentrantLock$")).toList();
        double total = onLock.stream().mapToLong(Contention::nanos).sum();
        double unknown = onLock.stream().filter(c -> c.cause().chain() == OwnerChain.UNKNOWN).mapToLong(Contention::nanos).sum();
        assertThat(total).as("the senders waited for the channel's lock").isPositive();
        assertThat(unknown / total).as("wait without a named cause").isLessThan(0.05);
    }

    /** Condition.await/signalAll: waits kept apart from contention, notifier named; re-acquiring the lock is flagged. */
    @Test
    void conditionWaitIsNotContentionAndNamesTheNotifier() throws Exception {
        List<String> consumers = List.of("wait-consumer-1", "wait-consumer-2");
        // as scripted: both consumers got to wait before the producer notified (a descheduled consumer may not)
        ScenarioRunner.Run run = ScenarioRunner.runUntil("blame-wait-juc", 0, r -> consumers.stream().allMatch(consumer ->
                r.blame().waits().stream().anyMatch(w -> w.waiter().name().equals(consumer)
                        && w.firstBeginNanos() < r.truth().at("wait-producer", "notify") - 10_000_000L)));
        TruthLog t = run.truth();
        for (String consumer : consumers) {
            List<WaitRecord> waits = run.blame().waits().stream().filter(w -> w.waiter().name().equals(consumer)).toList();
            assertThat(waits).as("waits of %s", consumer).isNotEmpty();
            assertThat(waits).as("the wait lasts until the notification").anySatisfy(w ->
                    assertThat(w.firstBeginNanos() + w.nanos()).isGreaterThanOrEqualTo(t.at("wait-producer", "notify")));
            // no contention inside a wait; contention after the notification re-acquires the lock and is flagged
            for (Contention c : run.blame().contentions()) {
                if (!c.waiter().name().equals(consumer)) {
                    continue;
                }
                for (WaitRecord w : waits) {
                    // the record's first contention: a record of several has all their nanos, which is no interval (two
                    // contentions of 0.36 and 0.31 ms before a wait "ended" 32 µs into it, once)
                    assertThat(c.firstBeginNanos() + c.firstNanos() <= w.firstBeginNanos()
                            || c.firstBeginNanos() >= w.firstBeginNanos() + w.nanos())
                            .as("contention %s overlaps wait %s", c, w).isTrue();
                }
                if (c.firstBeginNanos() > t.at("wait-producer", "notify")) {
                    assertThat(c.afterWait()).as("re-acquisition after wait flagged: %s", c).isTrue();
                }
            }
        }
        List<WaitRecord> consumerWaits = run.blame().waits().stream().filter(w -> consumers.contains(w.waiter().name())).toList();
        // the first consumer is woken by the producer's unlock, the second by the first consumer's unlock
        assertThat(consumerWaits).anySatisfy(w -> assertThat(w.notifier().name()).isEqualTo("wait-producer"));
        assertThat(consumerWaits).allSatisfy(w -> assertThat(w.notifier().name()).startsWith("wait-"));
    }

    /**
     * Object.wait/notifyAll: a wait that another thread's notify ended is a wait for that thread (a lock
     * built on wait/notify, kind wait), blamed on the notifier until the notification; re-entering the
     * monitor afterwards is monitor contention, flagged as after the wait, never inside it.
     */
    @Test
    void notifiedObjectWaitIsBlamedOnTheNotifier() throws Exception {
        List<String> consumers = List.of("wait-consumer-1", "wait-consumer-2");
        ScenarioRunner.Run run = ScenarioRunner.runUntil("blame-wait-sync", 0, r -> consumers.stream().allMatch(consumer ->
                r.blame().contentions().stream().anyMatch(c -> c.lock().kind() == LockKind.WAIT && c.waiter().name().equals(consumer)
                        && c.firstBeginNanos() < r.truth().at("wait-producer", "notify") - 10_000_000L)));
        TruthLog t = run.truth();
        for (String consumer : consumers) {
            List<Contention> mine = run.blame().contentions().stream().filter(c -> c.waiter().name().equals(consumer)).toList();
            List<Contention> waited = mine.stream().filter(c -> c.lock().kind() == LockKind.WAIT).toList();
            assertThat(waited).as("waits of %s", consumer).isNotEmpty()
                    .allSatisfy(c -> assertThat(c.cause().owner().name()).isEqualTo("wait-producer"));
            long begin = waited.stream().mapToLong(Contention::firstBeginNanos).min().orElseThrow();
            long end = waited.stream().mapToLong(c -> c.firstBeginNanos() + c.nanos()).max().orElseThrow();
            assertThat(end).as("the wait lasts until the notification").isGreaterThanOrEqualTo(t.at("wait-producer", "notify"));
            for (Contention c : mine) {
                if (c.lock().kind() == LockKind.MONITOR) {
                    assertThat(c.firstBeginNanos() + c.nanos() <= begin || c.firstBeginNanos() >= end)
                            .as("contention %s overlaps the wait", c).isTrue();
                    if (c.firstBeginNanos() > t.at("wait-producer", "notify")) {
                        assertThat(c.afterWait()).as("re-acquisition after wait flagged: %s", c).isTrue();
                    }
                }
            }
        }
        assertThat(run.blame().waits()).as("no notified wait is kept apart")
                .noneMatch(w -> consumers.contains(w.waiter().name()) && w.timedOut() == 0);
    }

    /** The same recording gives the same report, byte for byte, in text and JSON, in-process and from the CLI. */
    @Test
    void reportsAreDeterministic() throws Exception {
        Path dir = ScenarioRunner.workDir("deterministic");
        ScenarioRunner.Run run = ScenarioRunner.run("blame-barging-juc", 0, dir);
        List<Aspect> aspects = Aspect.parseList("owner-method,lock-class,waiter-method");
        BlameSummary once = BlameSummary.of(run.blame(), aspects, false);
        BlameAnalysis blame = new BlameAnalysis(); // summed by key, as the CLI does: the same summary as span by span
        RecordingReader.read(run.file(), blame);
        BlameSummary again = BlameSummary.of(blame.result(), aspects, false);
        assertThat(BlameTextReport.render(again)).isEqualTo(BlameTextReport.render(once));
        assertThat(BlameJsonReport.render(again)).isEqualTo(BlameJsonReport.render(once));

        List<String> cli = List.of(ScenarioRunner.javaBinary(), "-jar", ScenarioRunner.jar("lockscope.jar").toString(), "blame",
                run.file().toString(), "--format", "json");
        assertThat(ScenarioRunner.exec(cli, dir)).isEqualTo(ScenarioRunner.exec(cli, dir)).contains("\"blame\"", "\"tree\"");
    }

    /** Every parked nanosecond of a lock is in exactly one contention record, blamed on an owner or unknown. */
    @Test
    void parkTimeIsFullyAccountedFor() throws Exception {
        ScenarioRunner.Run run = ScenarioRunner.run("blame-barging-juc", 0, ScenarioRunner.workDir("accounted"));
        assertThat(run.blame().contentions()).allSatisfy(c -> assertThat(c.nanos()).isPositive());
        long parked = run.recording().parks().stream().filter(p -> !p.blockerClass().endsWith("$ConditionObject"))
                .mapToLong(p -> p.durationNanos(run.recording().endNanos())).sum();
        assertThat(run.blame().contentions().stream().filter(c -> c.lock().kind().label().equals("park"))
                .mapToLong(Contention::nanos).sum()).isEqualTo(parked);
        assertThat(run.recording().parks()).extracting(ParkWait::thread).isNotEmpty();
    }
}
