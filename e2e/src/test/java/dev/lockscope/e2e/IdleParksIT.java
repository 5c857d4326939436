package dev.lockscope.e2e;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14: the parks of a blocker first parked on where a worker waits for work are recorded as
 * {@code lockscope.IdlePark}, without a stack, and their unparks not at all; a contended lock in the same
 * run keeps its stacks and unparks; those shorter than 10 ms are sampled by length, their time estimated without
 * bias against the exact summary. The report still calls the pool's waits idle (rule pool-queue) from the
 * blocker's first stack, and the wall profile puts the idle time under that stack, labelled as such.
 */
class IdleParksIT {
    private static final String CONDITION = "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject";
    private static final long IDLE_SAMPLE_BELOW = 10_000_000L;

    @Test
    void idleWorkersParkWithoutStacksAndContendedLocksKeepThem() throws Exception {
        Path jfr = Path.of("target", "idle-parks", "trickle.jfr").toAbsolutePath();
        Path dir = jfr.getParent();
        Proc record = Proc.record(jfr, 180, List.of(), Proc.TEST_CLASSES, IdleTrickleMain.class.getName());
        assertThat(record.exitCode()).as(record.err()).isZero();

        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        Set<String> idleBlockers = new HashSet<>();
        Map<String, Long> idleEstimate = new HashMap<>();
        int idleParks = 0;
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("lockscope.IdlePark")) {
                idleParks++;
                assertThat(e.getStackTrace()).as("an idle park's stack").isNull();
                assertThat(e.getLong("ownerTid")).isZero();
                idleBlockers.add(blocker(e));
                // sampled below 10 ms by length (the default sampleBelow is on): a shorter one stands for 10 ms,
                // a longer one for itself (0); the hook's clock and JFR's may differ by a little at the boundary
                long standsFor = e.getLong("standsForNanos");
                long length = e.getDuration().toNanos();
                if (standsFor == 0) {
                    assertThat(length).as("an idle park recorded for itself").isGreaterThan(IDLE_SAMPLE_BELOW * 9 / 10);
                } else {
                    assertThat(standsFor).as("what a sampled idle park stands for").isEqualTo(IDLE_SAMPLE_BELOW);
                    assertThat(length).as("a sampled idle park").isLessThan(IDLE_SAMPLE_BELOW * 11 / 10);
                }
                idleEstimate.merge(blocker(e), standsFor == 0 ? length : standsFor, Long::sum);
            }
        }
        // two workers, 200 tasks 2 ms apart: nearly every task wakes a parked worker, after 2 to 4 ms parked, so
        // each park is recorded with probability 0.2 to 0.4
        assertThat(idleParks).as("idle parks").isGreaterThan(20);
        assertThat(idleBlockers).as("the pool queue's condition").anyMatch(b -> b.startsWith(CONDITION + "@"));
        // the sampled events estimate the idle time without bias: against the exact summary of the pool's
        // condition (its last batch), about 80 recorded parks of 10 ms give a standard error near 9%
        Map<String, Long> summaryTime = new HashMap<>();
        long lastBatch = events.stream().filter(e -> e.getEventType().getName().equals("lockscope.LockSummary"))
                .mapToLong(e -> e.getLong("batch")).max().orElseThrow();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("lockscope.LockSummary") && e.getLong("batch") == lastBatch) {
                summaryTime.put(blocker(e), e.getLong("threadTimeNanos"));
            }
        }
        String pool = idleEstimate.entrySet().stream().filter(b -> b.getKey().startsWith(CONDITION + "@"))
                .max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        assertThat(summaryTime).as("the pool condition's summary").containsKey(pool);
        assertThat((double) idleEstimate.get(pool)).as("idle time from the sampled events against the summary's")
                .isCloseTo(summaryTime.get(pool), org.assertj.core.data.Percentage.withPercentage(35));
        int contendedParks = 0;
        int contendedUnparks = 0;
        for (RecordedEvent e : events) {
            String name = e.getEventType().getName();
            // the contenders' lock, told by its threads: the pool's own ReentrantLocks (its main lock, its queue's
            // take lock) may be parked on too, by main or a worker, and are not this check's subject
            if (name.equals("lockscope.Unpark")) {
                assertThat(idleBlockers).as("an unpark of an idle blocker").doesNotContain(blocker(e));
                contendedUnparks += e.getString("targetName").startsWith("contender-") ? 1 : 0;
            } else if (name.equals("lockscope.Park") && e.getThread().getJavaName().startsWith("contender-")
                    && e.getString("blockerClass").startsWith("java.util.concurrent.locks.ReentrantLock$")) {
                contendedParks++;
                assertThat(e.getStackTrace()).as("a contended park's stack").isNotNull();
                assertThat(e.getStackTrace().getFrames()).anyMatch(f -> f.getMethod().getType().getName().equals(IdleTrickleMain.class.getName()));
            }
        }
        assertThat(contendedParks).as("parks on the contended lock").isGreaterThan(20);
        assertThat(contendedUnparks).as("unparks of the contended lock").isGreaterThan(20);

        Proc text = Proc.lockscope(dir, 120, "report", jfr.toString());
        assertThat(text.exitCode()).as(text.err()).isZero();
        // pool-queue, and at times termination-wait too: when main (in awaitTermination) and an exiting worker
        // (processWorkerExit) contend for the pool's main lock at shutdown, the report calls that lock termination-wait
        // and the worker's park on it idle by that rule (seen once on JDK 25: 2 parks, 41 us)
        assertThat(text.out()).as(text.out()).containsPattern("\\n  pool-#-thread-# +[0-9.]+ s in [0-9]+ waits? +\\(rule pool-queue[,)]");

        Proc wall = Proc.lockscope(dir, 120, "profile", jfr.toString(), "--wall", "--format", "collapsed");
        assertThat(wall.exitCode()).as(wall.err()).isZero();
        assertThat(wall.out()).as(wall.out()).containsPattern(
                "ThreadPoolExecutor\\.getTask;[^ ]*\\[parked on " + java.util.regex.Pattern.quote(CONDITION)
                        + ", idle: first park's stack\\] [0-9]+\\n");
    }

    private static String blocker(RecordedEvent e) {
        return e.getString("blockerClass") + "@" + e.getInt("blockerHash");
    }
}
