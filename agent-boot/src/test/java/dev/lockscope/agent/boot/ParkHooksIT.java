package dev.lockscope.agent.boot;

import dev.lockscope.core.ParkTally;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.concurrent.locks.ReentrantLock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/** The hooks called directly (no instrumentation, no recording): live records and their safety. */
class ParkHooksIT {
    @BeforeAll
    static void activate() {
        BlockerRegistry.configure(0, 1_000);
        // Without --add-opens the owner cannot be read: activation says so and goes on.
        HookActivation.activate();
        assertThat(HookActivation.isActive()).isTrue();
    }

    private static BlockerRecord recordOf(Object blocker) {
        return BlockerRegistry.records().stream().filter(r -> r.key.get() == blocker).findFirst().orElse(null);
    }

    @Test
    void parkBeginAndEndMaintainTheLiveTally() {
        ReentrantLock lock = new ReentrantLock();
        Object blocker = lock; // any object works as a blocker
        Object first = ParkHooks.parkBegin(blocker, 0, 0);
        Object second = ParkHooks.parkBegin(blocker, 0, 0);
        ParkTally during = recordOf(blocker).tally();
        assertThat(during.timesParked).isEqualTo(2);
        assertThat(during.parkedNow).isEqualTo(2);
        assertThat(during.peakParked).isEqualTo(2);
        ParkHooks.parkEnd(first);
        ParkHooks.parkEnd(second);
        ParkTally after = recordOf(blocker).tally();
        assertThat(after.parkedNow).isZero();
        assertThat(after.timesParked).isEqualTo(2);
        assertThat(recordOf(blocker).firstThread()).isEqualTo(Thread.currentThread().getName());
        assertThat(recordOf(blocker).firstFrames()[0]).doesNotStartWith("dev.lockscope.agent.boot.");
    }

    /**
     * The J9 park-contention report counts parks still open up to the last event, a park's begin included: with two parks open and none
     * ended, the thread-time and the real-time are both the time from the first begin to the second.
     */
    @Test
    void openParksCountUpToTheLatestBeginWhenNoParkHasEnded() throws Exception {
        Object blocker = new Object();
        java.util.concurrent.CountDownLatch begun = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
        Thread other = new Thread(() -> {
            Object token = ParkHooks.parkBegin(blocker, 0, 0);
            begun.countDown();
            try {
                end.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ParkHooks.parkEnd(token);
        });
        other.start();
        begun.await();
        letTimePass();
        Object second = ParkHooks.parkBegin(blocker, 0, 0);
        ParkTally open = recordOf(blocker).tally();
        ParkHooks.parkEnd(second);
        end.countDown();
        other.join();
        assertThat(open.parkedNow).isEqualTo(2);
        assertThat(open.lastTime - open.firstTime).isGreaterThanOrEqualTo(1_000_000L);
        assertThat(open.threadTimeNanos).isEqualTo(open.lastTime - open.firstTime);
        assertThat(open.realTimeNanos).isEqualTo(open.lastTime - open.firstTime);
    }

    /**
     * A blocker's first park walks the waiter's stack for the summary: the agent's time, not waiting, so the tally
     * counts from after it. Five new blockers, each parked on once from a deep stack (a long walk) with the permit
     * already given (the park returns at once): their thread time is a small part of the hooks' whole time, which
     * the walk is most of. With the clock read before the walk it was nearly all of it.
     */
    @Test
    void aBlockersFirstStackWalkIsNotCountedAsWaiting() {
        long hooks = 0;
        long parked = 0;
        for (int i = 0; i < 5; i++) {
            Object blocker = new Object();
            hooks += parkAtOnceFrom(300, blocker);
            parked += recordOf(blocker).tally().threadTimeNanos;
        }
        assertThat(parked).as("thread time of five parks that returned at once, against the hooks' time around them")
                .isLessThan(hooks / 2);
    }

    /** The hooks' time around a park on {@code blocker} that returns at once, {@code depth} frames down. */
    private static long parkAtOnceFrom(int depth, Object blocker) {
        if (depth > 0) {
            return parkAtOnceFrom(depth - 1, blocker);
        }
        java.util.concurrent.locks.LockSupport.unpark(Thread.currentThread()); // the permit: park returns at once
        long start = System.nanoTime();
        Object token = ParkHooks.parkBegin(blocker, 0, 0);
        java.util.concurrent.locks.LockSupport.park(blocker);
        ParkHooks.parkEnd(token);
        return System.nanoTime() - start;
    }

    @Test
    void anUnparkNumbersItsTargetsHandOffBeforeWakingIt() throws Exception {
        Object blocker = new Object();
        java.util.concurrent.atomic.AtomicBoolean woken = new java.util.concurrent.atomic.AtomicBoolean();
        long[] handoff = new long[2];
        Thread waiter = new Thread(() -> {
            Object token = ParkHooks.parkBegin(blocker, 0, 0);
            handoff[0] = ((ParkHooks.Token) token).handoffAtPark;
            while (!woken.get()) {
                java.util.concurrent.locks.LockSupport.park(blocker); // sets the blocker unparkBegin looks at
            }
            handoff[1] = PerThread.THREADS.get(Thread.currentThread()).handoff;
            ParkHooks.parkEnd(token);
        }, "waiter");
        wakeThroughHooks(waiter, blocker, woken);
        assertThat(handoff[1]).as("the woken thread sees the unpark's number").isEqualTo(handoff[0] + 1);
    }

    /**
     * A thread awaiting a Condition is woken: the unpark is a {@code lockscope.ConditionUnpark}, committed
     * without the releaser's stack, and no {@code lockscope.Unpark} is written for it.
     */
    @Test
    void anUnparkOfAConditionWaiterRecordsNoStack() throws Exception {
        Object condition = new ReentrantLock().newCondition(); // an AQS ConditionObject
        java.util.concurrent.atomic.AtomicBoolean woken = new java.util.concurrent.atomic.AtomicBoolean();
        Thread waiter = parkingUntil(woken, condition, "awaiting");
        java.nio.file.Path file = java.nio.file.Files.createTempFile("condition-unpark", ".jfr");
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(dev.lockscope.core.EventNames.UNPARK).withStackTrace();
            recording.enable(dev.lockscope.core.EventNames.CONDITION_UNPARK);
            recording.start();
            Object token = wakeThroughHooks(waiter, condition, woken);
            assertThat(recordOf(condition).condition).isTrue();
            assertThat(token).isInstanceOf(ConditionUnparkEvent.class);
            recording.stop();
            recording.dump(file);
            java.util.List<jdk.jfr.consumer.RecordedEvent> events = jdk.jfr.consumer.RecordingFile.readAllEvents(file);
            assertThat(events).extracting(e -> e.getEventType().getName())
                    .containsExactly(dev.lockscope.core.EventNames.CONDITION_UNPARK);
            jdk.jfr.consumer.RecordedEvent unpark = events.get(0);
            assertThat(unpark.getStackTrace()).isNull();
            assertThat(unpark.getLong("targetTid")).isEqualTo(waiter.getId());
            assertThat(unpark.getString("blockerClass")).endsWith("$ConditionObject");
            assertThat(unpark.getThread().getJavaThreadId()).isEqualTo(Thread.currentThread().getId());
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    /**
     * With parks not recorded (here: all shorter than the threshold), an unpark is written only to learn a
     * releaser's call site: once per lock for each of the last two locks a thread released, and never for a
     * Condition waiter, whose unpark has no stack. Before, a thread that woke a condition's and a lock's waiters
     * in turn (ArrayBlockingQueue) wrote an unpark for nearly every park, recorded or not.
     */
    @Test
    void anUnparkOfAParkNotRecordedIsWrittenOnlyForALocksFirstRelease() throws Exception {
        Object condition = new ReentrantLock().newCondition();
        Object a = new ReentrantLock();
        Object b = new ReentrantLock();
        java.nio.file.Path file = java.nio.file.Files.createTempFile("unrecorded-unparks", ".jfr");
        ParkHooks.setThresholdNanos(3_600_000_000_000L); // no park recorded
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(dev.lockscope.core.EventNames.UNPARK).withStackTrace();
            recording.enable(dev.lockscope.core.EventNames.CONDITION_UNPARK);
            recording.start();
            assertThat(unparkAWaiterOf(condition)).as("a condition waiter's").isFalse();
            assertThat(unparkAWaiterOf(a)).as("lock a's first").isTrue();
            assertThat(unparkAWaiterOf(b)).as("lock b's first").isTrue();
            assertThat(unparkAWaiterOf(a)).as("lock a's again").isFalse();
            assertThat(unparkAWaiterOf(b)).as("lock b's again").isFalse();
            assertThat(unparkAWaiterOf(condition)).as("a condition waiter's again").isFalse();
            recording.stop();
            recording.dump(file);
            assertThat(jdk.jfr.consumer.RecordingFile.readAllEvents(file)).extracting(e -> e.getEventType().getName())
                    .containsExactly(dev.lockscope.core.EventNames.UNPARK, dev.lockscope.core.EventNames.UNPARK);
        } finally {
            ParkHooks.setThresholdNanos(0);
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    /** Parks a new thread on {@code blocker}, unparks it through the hooks; whether the unpark was to be written. */
    private static boolean unparkAWaiterOf(Object blocker) throws InterruptedException {
        java.util.concurrent.atomic.AtomicBoolean woken = new java.util.concurrent.atomic.AtomicBoolean();
        return wakeThroughHooks(parkingUntil(woken, blocker, "waiter"), blocker, woken) != null;
    }

    /**
     * Starts {@code waiter}, which parks on {@code blocker} until {@code woken} is set; once it is parked there, sets
     * {@code woken} and unparks it as instrumented code would (hook, real unpark, hook). Returns the unpark's token.
     */
    private static Object wakeThroughHooks(Thread waiter, Object blocker, java.util.concurrent.atomic.AtomicBoolean woken)
            throws InterruptedException {
        waiter.start();
        while (java.util.concurrent.locks.LockSupport.getBlocker(waiter) != blocker) {
            Thread.onSpinWait();
        }
        woken.set(true);
        Object token = ParkHooks.unparkBegin(waiter);
        java.util.concurrent.locks.LockSupport.unpark(waiter);
        ParkHooks.unparkEnd(token);
        waiter.join();
        return token;
    }

    /**
     * {@code timedOut} (computed without a branch): set exactly for a park that woke at or after its timeout or
     * deadline, not for one woken before it (the permit given first) nor for one without either.
     */
    @Test
    void aParkIsTimedOutExactlyWhenItWokeAtItsTimeoutOrDeadline() throws Exception {
        Object blocker = new Object();
        java.nio.file.Path file = java.nio.file.Files.createTempFile("timed-out-parks", ".jfr");
        ParkSampling.setSampleBelowNanos(0); // every park recorded (the default here; another test sets and resets it)
        // each park told apart by its timeout and deadline: a file's events need not be in the order of their commits
        java.util.Map<String, Boolean> expected = new java.util.LinkedHashMap<>();
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(dev.lockscope.core.EventNames.PARK);
            recording.start();
            long ms = 1_000_000L;
            long now = System.currentTimeMillis();
            expected.put(parkOnce(blocker, 2 * ms, 0, false), true); // times out
            expected.put(parkOnce(blocker, 10_000 * ms, 0, true), false); // woken at once
            expected.put(parkOnce(blocker, 0, now + 2, false), true); // deadline passes
            expected.put(parkOnce(blocker, 0, now + 10_000, true), false); // woken before the deadline
            expected.put(parkOnce(blocker, 0, 0, true), false); // neither
            expected.put(parkOnce(blocker, -5 * ms, 0, true), false); // a timeout of at most 0 is none
            recording.stop();
            recording.dump(file);
            java.util.Map<String, Boolean> recorded = new java.util.LinkedHashMap<>();
            for (jdk.jfr.consumer.RecordedEvent e : jdk.jfr.consumer.RecordingFile.readAllEvents(file)) {
                recorded.put(key(e.getLong("timeoutNanos"), e.getLong("deadlineMillis")), e.getBoolean("timedOut"));
            }
            assertThat(recorded).containsExactlyInAnyOrderEntriesOf(expected);
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    /** An instant event that marks a moment on JFR's time line. */
    @jdk.jfr.Name("test.Marker")
    static final class Marker extends jdk.jfr.Event {
        @jdk.jfr.Label("Which")
        String which;
    }

    /**
     * Where JFR's clock is nanoTime minus a constant (Linux), a park event takes its times from the tally's clock
     * reads (JfrClock) instead of JFR reading the clock again: its duration is exactly the tally's thread time for
     * that park, and its start and end lie on JFR's time line, between an event committed just before the park and
     * one just after it (within the calibration's half bracket).
     */
    @Test
    void aParkEventTakesItsTimesFromTheTallysClockReads() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty("os.name").startsWith("Linux"),
                "JFR's clock is nanoTime minus a constant on Linux");
        Object blocker = new Object();
        java.nio.file.Path file = java.nio.file.Files.createTempFile("park-times", ".jfr");
        ParkSampling.setSampleBelowNanos(0);
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(dev.lockscope.core.EventNames.PARK);
            recording.enable(Marker.class);
            recording.start();
            assertThat(ParkEventTimes.calibrate()).isTrue();
            assertThat(ParkEventTimes.fromTally()).isTrue();
            Marker before = new Marker();
            before.which = "before";
            before.commit();
            parkOnce(blocker, 2_000_000L, 0, false);
            Marker after = new Marker();
            after.which = "after";
            after.commit();
            recording.stop();
            recording.dump(file);
            java.util.Map<String, jdk.jfr.consumer.RecordedEvent> byName = new java.util.HashMap<>();
            for (jdk.jfr.consumer.RecordedEvent e : jdk.jfr.consumer.RecordingFile.readAllEvents(file)) {
                byName.put(e.getEventType().getName().equals("test.Marker") ? e.getString("which") : e.getEventType().getName(), e);
            }
            jdk.jfr.consumer.RecordedEvent park = byName.get(dev.lockscope.core.EventNames.PARK);
            assertThat(park.getDuration().toNanos()).isEqualTo(recordOf(blocker).tally().threadTimeNanos).isPositive();
            java.time.Duration slack = java.time.Duration.ofNanos(JfrClock.MAX_BRACKET_NANOS / 2);
            assertThat(park.getStartTime()).isAfterOrEqualTo(byName.get("before").getStartTime().minus(slack));
            assertThat(park.getEndTime()).isBeforeOrEqualTo(byName.get("after").getStartTime().plus(slack));
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    private static String key(long timeoutNanos, long deadlineMillis) {
        return "timeout " + timeoutNanos + " ns, deadline " + deadlineMillis;
    }

    /** One park through the hooks, with the permit given first when {@code woken} (it returns at once); its key. */
    private static String parkOnce(Object blocker, long timeoutNanos, long deadlineMillis, boolean woken) {
        if (woken) {
            java.util.concurrent.locks.LockSupport.unpark(Thread.currentThread());
        }
        Object token = ParkHooks.parkBegin(blocker, timeoutNanos, deadlineMillis);
        long begin = System.nanoTime();
        if (timeoutNanos != 0) {
            do { // again after a spurious or early return, so that a park meant to time out does
                java.util.concurrent.locks.LockSupport.parkNanos(blocker, Math.max(1, timeoutNanos));
            } while (!woken && System.nanoTime() - begin < timeoutNanos);
        } else if (deadlineMillis != 0) {
            do {
                java.util.concurrent.locks.LockSupport.parkUntil(blocker, deadlineMillis);
            } while (!woken && System.currentTimeMillis() < deadlineMillis);
        } else {
            java.util.concurrent.locks.LockSupport.park(blocker);
        }
        ParkHooks.parkEnd(token);
        return key(timeoutNanos, deadlineMillis);
    }

    /**
     * Sampling (sampleBelow): each short park is decided by one draw. When the unpark that woke it drew, the
     * park is recorded exactly when that unpark's event is (the releaser walked its stack for it), even if
     * the wake-up took it past sampleBelow; and the recorded parks' standsForNanos sum to the
     * parked time of all parks (the exact tally) within a few standard errors.
     */
    @Test
    void aSampledParkIsRecordedExactlyWhenItsUnparkerWalkedItsStackAndStandsForItsShare() throws Exception {
        Object blocker = new Object();
        int rounds = 600;
        java.util.concurrent.atomic.AtomicInteger parked = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger go = new java.util.concurrent.atomic.AtomicInteger();
        Thread waiter = new Thread(() -> {
            for (int i = 0; i < rounds; i++) {
                Object token = ParkHooks.parkBegin(blocker, 0, 0);
                parked.set(i + 1);
                while (go.get() <= i) {
                    java.util.concurrent.locks.LockSupport.park(blocker);
                }
                ParkHooks.parkEnd(token);
            }
        }, "sampled-waiter");
        java.nio.file.Path file = java.nio.file.Files.createTempFile("sampled-parks", ".jfr");
        ParkSampling.setSampleBelowNanos(1_000_000);
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(dev.lockscope.core.EventNames.PARK).withStackTrace();
            recording.enable(dev.lockscope.core.EventNames.UNPARK).withStackTrace();
            recording.start();
            waiter.start();
            java.util.Random random = new java.util.Random(42);
            for (int i = 0; i < rounds; i++) {
                while (parked.get() <= i || java.util.concurrent.locks.LockSupport.getBlocker(waiter) != blocker) {
                    Thread.onSpinWait();
                }
                long until = System.nanoTime() + 20_000 + random.nextInt(400_000);
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                // the hook first (it numbers the hand-off and draws), then the flag: the waiter cannot leave
                // its park before this unpark decided
                Object token = ParkHooks.unparkBegin(waiter);
                go.set(i + 1);
                java.util.concurrent.locks.LockSupport.unpark(waiter);
                ParkHooks.unparkEnd(token);
            }
            waiter.join();
            recording.stop();
            recording.dump(file);
            java.util.List<jdk.jfr.consumer.RecordedEvent> events = jdk.jfr.consumer.RecordingFile.readAllEvents(file);
            java.util.Set<Long> unparks = new java.util.HashSet<>();
            java.util.TreeMap<Long, Long> unrecordedBefore = new java.util.TreeMap<>(); // by hand-off number
            java.util.Set<Long> recordedWakes = new java.util.HashSet<>();
            java.util.Set<Long> sampledWakes = new java.util.HashSet<>();
            long firstUnpark = Long.MAX_VALUE;
            double standsFor = 0;
            int sampled = 0;
            for (jdk.jfr.consumer.RecordedEvent e : events) {
                if (e.getEventType().getName().equals(dev.lockscope.core.EventNames.UNPARK)) {
                    unparks.add(e.getLong("handoff"));
                    unrecordedBefore.put(e.getLong("handoff"), e.getLong("unrecordedBefore"));
                    firstUnpark = Math.min(firstUnpark, e.getLong("handoff"));
                } else {
                    long s = e.getLong("standsForNanos");
                    standsFor += s > 0 ? s : e.getDuration().toNanos();
                    sampled += s > 0 ? 1 : 0;
                    if (e.getLong("handoffAtWake") == e.getLong("handoffAtPark") + 1) {
                        recordedWakes.add(e.getLong("handoffAtWake"));
                        if (s > 0) {
                            sampledWakes.add(e.getLong("handoffAtWake"));
                        }
                    }
                }
            }
            // every unpark here numbers one hand-off of the waiter, recorded or not: between two recorded ones the
            // unparker's count of unrecorded unparks grows by the hand-offs between them that were not recorded
            long previousHandoff = -1;
            long previousCount = -1;
            for (java.util.Map.Entry<Long, Long> u : unrecordedBefore.entrySet()) {
                if (previousHandoff >= 0) {
                    assertThat(u.getValue() - previousCount).as("unrecorded unparks before hand-off %d", u.getKey())
                            .isEqualTo(u.getKey() - previousHandoff - 1);
                }
                previousHandoff = u.getKey();
                previousCount = u.getValue();
            }
            unparks.remove(firstUnpark); // written whatever the draw: the releaser's first unpark on this blocker
            assertThat(sampled).as("parks shorter than sampleBelow recorded by a draw").isPositive();
            recordedWakes.remove(firstUnpark);
            sampledWakes.remove(firstUnpark);
            assertThat(unparks).as("an unpark is recorded exactly for the parks recorded").isEqualTo(recordedWakes);
            assertThat(sampledWakes.size()).as("most recorded parks were sampled").isGreaterThan(recordedWakes.size() / 2);
            ParkTally tally = recordOf(blocker).tally();
            assertThat(tally.timesParked).isEqualTo(rounds);
            assertThat(standsFor / tally.threadTimeNanos).as("estimated / exact parked time")
                    .isBetween(0.65, 1.35);
        } finally {
            ParkSampling.setSampleBelowNanos(0);
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    @Test
    void inputsThatAreNotTheHooksOwnAreTurnedAwayWithoutAFailure() {
        long failures = HookFailures.count();
        assertThatCode(() -> {
            ParkHooks.parkEnd(null);
            ParkHooks.parkEnd("not a token");
            ParkHooks.parkBegin(null, 0, 0);
            ParkHooks.unparkEnd(ParkHooks.unparkBegin(null));
            ParkHooks.unparkEnd(new Object());
        }).doesNotThrowAnyException();
        assertThat(HookFailures.count()).as("each turned away by its guard, not by a caught exception").isEqualTo(failures);
    }

    @Test
    void aFailureInsideAHookIsCountedNotThrownAndTheThreadsHooksGoOn() {
        long failures = HookFailures.count();
        // a token of no thread: parkEnd's body fails on it, as a bug in the hook would
        ParkHooks.Token broken = new ParkHooks.Token(null);
        assertThatCode(() -> ParkHooks.parkEnd(broken)).doesNotThrowAnyException();
        assertThat(HookFailures.count()).isEqualTo(failures + 1);
        assertThat(HookFailures.first()).isNotNull();

        Object blocker = new Object();
        ParkHooks.parkEnd(ParkHooks.parkBegin(blocker, 0, 0));
        assertThat(recordOf(blocker).tally().timesParked).as("the next park of this thread is counted").isEqualTo(1);
        assertThat(HookFailures.count()).isEqualTo(failures + 1);
    }

    @Test
    void recordsDoNotKeepBlockersAliveAndDeadOnesAreDropped() throws Exception {
        Object blocker = new Object();
        ParkHooks.parkEnd(ParkHooks.parkBegin(blocker, 0, 0));
        WeakReference<Object> ref = new WeakReference<>(blocker);
        int hash = System.identityHashCode(blocker);
        blocker = null;
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(ref.get()).as("the record must not keep its blocker reachable").isNull();
        // dropped by the registry's thread once the GC queued the key, or by free-on-print if that came first
        for (int i = 0; i < 250 && BlockerRegistry.records().stream().anyMatch(r -> r.identityHash == hash); i++) {
            BlockerRegistry.removeDead();
            Thread.sleep(20);
        }
        assertThat(BlockerRegistry.records()).noneMatch(r -> r.identityHash == hash);
    }

    /**
     * A thread (not started) that parks on {@code blocker} through the hooks until {@code woken} is set; its
     * {@code LockSupport} park sets the blocker that {@code unparkBegin} looks at.
     */
    private static Thread parkingUntil(java.util.concurrent.atomic.AtomicBoolean woken, Object blocker, String name) {
        return new Thread(() -> {
            Object token = ParkHooks.parkBegin(blocker, 0, 0);
            while (!woken.get()) {
                java.util.concurrent.locks.LockSupport.park(blocker);
            }
            ParkHooks.parkEnd(token);
        }, name);
    }

    /** A park from one call site, so every blocker parked on here is of one lock site. */
    private static Object parkHere(Object blocker) {
        return ParkHooks.parkBegin(blocker, 0, 0);
    }

    /** Lets the clock move on, so waiting intervals that overlap do so by a measurable time. */
    private static void letTimePass() {
        long from = System.nanoTime();
        while (System.nanoTime() - from < 1_000_000) {
            Thread.onSpinWait();
        }
    }

    @Test
    void aSitesRealTimeIsTheUnionOfItsObjectsWaitsNotTheirSum() {
        class EntryMutex { } // a class of its own: no other test's blockers share its site
        Object a = new EntryMutex();
        Object b = new EntryMutex();
        Object parkA = parkHere(a);
        letTimePass();
        Object parkB = parkHere(b); // both objects waited for at once from here on
        letTimePass();
        ParkHooks.parkEnd(parkA);
        letTimePass();
        ParkHooks.parkEnd(parkB);

        LockSummaries.Snapshot s = LockSummaries.snapshot();
        BlockerRecord recordA = recordOf(a);
        assertThat(recordA.site()).isSameAs(recordOf(b).site()).isNotNull();
        String key = dev.lockscope.core.LockSites.keyOf(dev.lockscope.core.LockKind.PARK, EntryMutex.class.getName(),
                dev.lockscope.core.LockSites.siteOf(java.util.Arrays.asList(recordA.firstFrames())));
        assertThat(recordA.site().key).isEqualTo(key);
        long realA = recordA.tally().realTimeNanos;
        long realB = recordOf(b).tally().realTimeNanos;
        assertThat(s.siteRealTimes()).containsKey(key);
        assertThat(s.siteRealTimes().get(key)).as("union of [a], [b] (%d, %d ns)", realA, realB)
                .isGreaterThan(realB).isLessThan(realA + realB);
    }

    /**
     * A fresh lock per request: the registry's own thread drops the records of the blockers the GC collected, and the
     * snapshot the table at exit prints keeps their parks, thread-time and real-time on one row of their
     * site, where the live ones' rows no longer are (in CI the exit table of the lock-table demo had lost
     * four fifths of its site's parks this way).
     */
    @Test
    void theParksOnCollectedBlockersStayInTheirSitesTally() throws Exception {
        class RequestMutex { } // a class of its own: no other test's blockers share its site
        int n = 20;
        java.util.List<WeakReference<Object>> refs = new java.util.ArrayList<>();
        long threadTime = parkOnFreshBlockers(RequestMutex::new, n, refs);
        // No further park and no call here: lockscope's thread drops the records as the GC queues their keys
        // (application threads no longer poll the reference queue, so a dropper that stopped would fail this).
        collectAndAwaitDrops(refs, RequestMutex.class, n);

        LockSummaries.Snapshot s = LockSummaries.snapshot();
        assertThat(s.entries()).noneMatch(e -> e.record().className.equals(RequestMutex.class.getName()));
        CollectedTally c = collectedOf(RequestMutex.class);
        assertThat(c.objects()).isEqualTo(n);
        assertThat(c.tally().timesParked).isEqualTo(n);
        assertThat(c.tally().threadTimeNanos).isEqualTo(threadTime).isGreaterThanOrEqualTo(n * 1_000_000L);
        assertThat(c.tally().realTimeNanos).as("one at a time: real-time is thread-time").isEqualTo(threadTime);
        assertThat(c.firstFrames()).isNotEmpty(); // (the hooks' own package is cut from stacks: parkHere is not in it)
        assertThat(c.firstThread()).isEqualTo(Thread.currentThread().getName());
        assertThat(s.collected()).contains(c);
        assertThat(s.siteRealTimes().get(c.siteKey())).as("the site's union, its objects all gone").isEqualTo(threadTime);
    }

    /**
     * Snapshots taken while lockscope's thread moves thousands of collected blockers into their site's sum
     * count each blocker once: a snapshot that ran beside the moves used to count some twice (in the map and in
     * the sum) or not at all, so the exit table and the summaries could be off by them.
     */
    @Test
    void aSnapshotBesideTheDropsCountsEveryBlockerOnce() throws Exception {
        class DroppedMutex { }
        int n = 20_000;
        BlockerRegistry.configure(0, 1_000 + n);
        try {
            java.util.List<WeakReference<Object>> refs = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                Object blocker = new DroppedMutex();
                ParkHooks.parkEnd(parkHere(blocker));
                refs.add(new WeakReference<>(blocker));
            }
            assertThat(parksOf(DroppedMutex.class, LockSummaries.snapshot())).isEqualTo(n);
            // snapshots one after another on a thread of their own while the GC queues the keys and the dropper moves them
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.List<String> wrong = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicInteger snapshots = new java.util.concurrent.atomic.AtomicInteger();
            Thread checker = new Thread(() -> {
                while (!done.get()) {
                    long parks = parksOf(DroppedMutex.class, LockSummaries.snapshot());
                    if (parks != n) {
                        wrong.add("snapshot " + snapshots.get() + ": " + parks + " parks");
                    }
                    snapshots.incrementAndGet();
                }
            }, "snapshots");
            checker.start();
            collectAndAwaitDrops(refs, DroppedMutex.class, n);
            done.set(true);
            checker.join();
            assertThat(collectedOf(DroppedMutex.class).objects()).isEqualTo(n);
            assertThat(snapshots.get()).isPositive();
            assertThat(wrong).as("of %d snapshots", snapshots.get()).isEmpty();
        } finally {
            BlockerRegistry.configure(0, 1_000);
        }
    }

    /**
     * Lets the GC collect the blockers of {@code refs}, then waits (up to 5 s) until lockscope's thread has moved
     * {@code n} records of {@code blockerClass} into their site's collected sum.
     */
    private static void collectAndAwaitDrops(java.util.List<WeakReference<Object>> refs, Class<?> blockerClass, int n)
            throws InterruptedException {
        for (int i = 0; i < 100 && refs.stream().anyMatch(r -> r.get() != null); i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(refs).allMatch(r -> r.get() == null);
        for (int i = 0; i < 250 && (collectedOf(blockerClass) == null || collectedOf(blockerClass).objects() < n); i++) {
            Thread.sleep(20);
        }
    }

    /** The parks of {@code blockerClass}'s blockers in a snapshot: the live records' and the collected sum's. */
    private static long parksOf(Class<?> blockerClass, LockSummaries.Snapshot s) {
        long parks = 0;
        for (LockSummaries.Entry e : s.entries()) {
            if (e.record().className.equals(blockerClass.getName())) {
                parks += e.tally().timesParked;
            }
        }
        for (CollectedTally c : s.collected()) {
            if (c.className().equals(blockerClass.getName())) {
                parks += c.tally().timesParked;
            }
        }
        return parks;
    }

    /** Parks once on each of {@code n} new blockers, one at a time; returns their summed thread-time. */
    private static long parkOnFreshBlockers(java.util.function.Supplier<Object> blockers, int n,
                                            java.util.List<WeakReference<Object>> refs) {
        long threadTime = 0;
        for (int i = 0; i < n; i++) {
            Object blocker = blockers.get();
            Object park = parkHere(blocker);
            letTimePass();
            ParkHooks.parkEnd(park);
            threadTime += recordOf(blocker).tally().threadTimeNanos;
            refs.add(new WeakReference<>(blocker));
        }
        return threadTime;
    }

    private static CollectedTally collectedOf(Class<?> blockerClass) {
        for (SiteUnion site : SiteUnion.all()) {
            CollectedTally c = site.collected();
            if (c != null && c.className().equals(blockerClass.getName())) {
                return c;
            }
        }
        return null;
    }

    /**
     * A pool whose queue parks through the hooks, so its worker waits for work in
     * {@code ThreadPoolExecutor.getTask}: the blocker's first park marks it an idle site, its later parks
     * take the stackless event, and an unpark of the worker parked there records nothing, while an unpark
     * of a thread parked elsewhere does (both with the events enabled).
     */
    @Test
    void aBlockerFirstParkedOnByAWorkerWaitingForWorkIsAnIdleSite() throws Exception {
        Object idleBlocker = new Object();
        java.util.List<Class<?>> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.BlockingQueue<Runnable> queue = new java.util.concurrent.LinkedBlockingQueue<>() {
            @Override
            public Runnable take() throws InterruptedException {
                Object token = ParkHooks.parkBegin(idleBlocker, 0, 0);
                events.add(((ParkHooks.Token) token).current.getClass());
                try {
                    return super.take(); // parks on the queue's condition: the blocker unparkBegin looks at
                } finally {
                    ParkHooks.parkEnd(token);
                }
            }
        };
        java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(1, 1, 1,
                java.util.concurrent.TimeUnit.MINUTES, queue);
        Object busyBlocker = new Object();
        java.util.concurrent.atomic.AtomicBoolean woken = new java.util.concurrent.atomic.AtomicBoolean();
        Thread waiter = parkingUntil(woken, busyBlocker, "waiter");
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(dev.lockscope.core.EventNames.PARK);
            recording.enable(dev.lockscope.core.EventNames.IDLE_PARK);
            recording.enable(dev.lockscope.core.EventNames.UNPARK);
            recording.start();
            Thread[] worker = new Thread[1];
            pool.execute(() -> worker[0] = Thread.currentThread());
            while (worker[0] == null || java.util.concurrent.locks.LockSupport.getBlocker(worker[0]) == null) {
                Thread.onSpinWait(); // the worker parked in take(), from getTask
            }
            assertThat(recordOf(idleBlocker).idleSite).as("idle site").isTrue();
            assertThat(ParkHooks.unparkBegin(worker[0])).as("an unpark of a worker waiting for work").isNull();
            pool.execute(() -> { });
            while (events.size() < 2 || java.util.concurrent.locks.LockSupport.getBlocker(worker[0]) == null) {
                Thread.onSpinWait();
            }
            assertThat(events).as("the first park, which found the site, then the next").containsExactly(
                    ParkEvent.class, IdleParkEvent.class);

            waiter.start();
            while (java.util.concurrent.locks.LockSupport.getBlocker(waiter) != busyBlocker) {
                Thread.onSpinWait();
            }
            assertThat(recordOf(busyBlocker).idleSite).as("a park outside any pool").isFalse();
            woken.set(true);
            Object token = ParkHooks.unparkBegin(waiter);
            java.util.concurrent.locks.LockSupport.unpark(waiter);
            ParkHooks.unparkEnd(token);
            assertThat(token).as("an unpark of a thread parked elsewhere").isInstanceOf(UnparkEvent.class);
            waiter.join();
        } finally {
            pool.shutdownNow();
        }
    }
}
