package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 18, deep mode: the known-answer programs of {@code dev.lockscope.demo.deep.DeepKnownAnswers}
 * recorded with {@code lockscope record --deep} in a fresh JVM; every count in the report's JSON must be
 * exactly the one the program scripts (counts do not depend on timing, so equality is asserted), and
 * the one scripted contended lock's SLOW must equal the waits JFR's own monitor events count.
 */
class DeepModeIT {
    private static final String PROGRAM = "dev.lockscope.demo.deep.DeepKnownAnswers";
    private static final String PREFIX = PROGRAM + "$";

    @TempDir
    static Path dir;
    static JsonNode deep;
    static JsonNode report;
    static String text;
    static String html;

    @BeforeAll
    static void recordTheKnownAnswers() throws Exception {
        Path jfr = dir.resolve("deep.jfr");
        Proc run = Proc.lockscope(dir, 180, "record", "-o", jfr.toString(), "--deep", "dev.lockscope.demo.deep.**",
                "--", Proc.JAVA, "-cp", Proc.DEMO_JAR.toString(), PROGRAM);
        assertThat(run.exitCode()).as("stderr:\n%s", run.err()).isZero();
        assertThat(run.out()).contains("deep known answers: done");
        Proc json = Proc.lockscope(dir, 120, "report", jfr.toString(), "--format", "json");
        assertThat(json.exitCode()).as("stderr:\n%s", json.err()).isZero();
        report = new ObjectMapper().readTree(json.out());
        deep = report.get("deep");
        assertThat(deep).as("no deep member in:\n%s", json.out()).isNotNull();
        Proc plain = Proc.lockscope(dir, 120, "report", jfr.toString(), "--top", "50");
        text = plain.out();
        Path page = dir.resolve("deep.html");
        Proc htmlRun = Proc.lockscope(dir, 120, "report", jfr.toString(), "--format", "html", "-o", page.toString());
        assertThat(htmlRun.exitCode()).as("stderr:\n%s", htmlRun.err()).isZero();
        html = Files.readString(page);
    }

    /** The one lock row of a class. */
    private static JsonNode lock(String className) {
        List<JsonNode> rows = locks(className);
        assertThat(rows).as("rows of %s in %s", className, deep.get("locks")).hasSize(1);
        return rows.get(0);
    }

    private static List<JsonNode> locks(String className) {
        List<JsonNode> rows = new ArrayList<>();
        deep.get("locks").forEach(l -> {
            if (l.get("lockClass").asText().equals(className)) {
                rows.add(l);
            }
        });
        return rows;
    }

    private static void assertCounts(JsonNode row, long gets, long nonRecursive, long slow, long recursive, long sections) {
        assertThat(row.get("gets").asLong()).as("gets of %s", row).isEqualTo(gets);
        assertThat(row.get("nonRecursive").asLong()).as("nonRecursive of %s", row).isEqualTo(nonRecursive);
        assertThat(row.get("slow").asLong()).as("slow of %s", row).isEqualTo(slow);
        assertThat(row.get("recursive").asLong()).as("recursive of %s", row).isEqualTo(recursive);
        assertThat(row.get("sections").asLong()).as("sections of %s", row).isEqualTo(sections);
        long histogram = 0;
        for (JsonNode n : row.get("holdHistogram")) {
            histogram += n.asLong();
        }
        long timed = row.get("timedSections").asLong();
        if (sections <= 1024) {
            assertThat(timed).as("timed sections of %s", row).isEqualTo(sections);
            assertThat(histogram).as("histogram of %s", row).isEqualTo(sections);
        } else {
            // the first 1,024 timed one by one, then one in 16 (pseudo-random, seeded by the identity hash: about
            // binomial), each counted 16 times; the slack of 6 keeps a few sampled sections from failing it
            // (FatFlat's 16: 3 timed in one run, over the 2 that n/8 allowed)
            long sampled = sections - 1024;
            assertThat(timed).as("timed sections of %s", row).isBetween(1024 + Math.max(0, sampled / 32 - 6), 1024 + sampled / 8 + 6);
            assertThat(histogram).as("histogram of %s", row).isEqualTo(1024 + 16 * (timed - 1024));
        }
    }

    @Test
    void aCounterOfOneThreadIsAllFirstRepetition() {
        JsonNode c = lock(PREFIX + "Counter");
        assertCounts(c, 10_000, 10_000, 0, 0, 10_000);
        assertThat(c.get("firstLocker").asText()).isEqualTo("counter");
        assertThat(c.get("firstSite").asText()).startsWith(PREFIX + "Counter.increment:");
        assertThat(c.get("lockedByOthers").asBoolean()).isFalse();
        assertThat(c.get("firstRunAll").asLong()).isEqualTo(10_000);
        assertThat(c.get("firstRunNonRecursive").asLong()).isEqualTo(10_000);
    }

    @Test
    void aHandOffEndsTheCreatorsFirstRepetition() {
        JsonNode h = lock(PREFIX + "Handoff");
        assertCounts(h, 1_001, 1_001, 0, 0, 1_001);
        assertThat(h.get("firstLocker").asText()).isEqualTo("creator");
        assertThat(h.get("lockedByOthers").asBoolean()).isTrue();
        assertThat(h.get("firstRunAll").asLong()).isEqualTo(1);
        assertThat(h.get("firstLockerNonRecursive").asLong()).isEqualTo(1);
    }

    @Test
    void theScriptedFatSectionsAreExactlyTheSlowAcquisitionsAndJfrAgrees() {
        JsonNode f = lock(PREFIX + "FatFlat");
        assertCounts(f, 20 * 52, 20 * 52, 20, 0, 20 * 52);
        assertThat(f.get("missPct").asDouble()).isEqualTo(100.0 * 20 / 1040, org.assertj.core.data.Offset.offset(0.0001));
        assertThat(f.get("blocked").asLong()).as("slow acquisitions that blocked in the JVM").isEqualTo(20);
        // JFR's jdk.JavaMonitorEnter (threshold 0) saw the same 20 blocked entries
        long jfrWaits = 0;
        for (JsonNode l : report.get("locks")) {
            if (l.get("kind").asText().equals("monitor") && l.get("className").asText().equals(PREFIX + "FatFlat")) {
                jfrWaits += l.get("timesParked").asLong();
            }
        }
        assertThat(jfrWaits).as("JFR monitor waits on FatFlat").isEqualTo(20);
        // Kawachiya's fat sections, in synchronisation operations: per round the holder's release (the
        // contender registered) and the contender's slow acquisition; the rest of the 2 x 1,040 are flat,
        // in 21 sections (before the first round, between rounds, after the last)
        assertThat(f.get("fatSections").asLong()).isEqualTo(20);
        assertThat(f.get("fatOps").asLong()).isEqualTo(40);
        assertThat(f.get("flatSections").asLong()).isEqualTo(21);
        assertThat(f.get("flatOps").asLong()).isEqualTo(2 * 1040 - 40);
    }

    /** Table 4.3 per group: FatFlat the only contended monitor of the nowait group, Inner of the wait group. */
    @Test
    void contentionTransiencePerGroup() {
        JsonNode groups = deep.get("behaviour").get("contention");
        assertThat(groups).hasSize(2);
        JsonNode nowait = groups.get(0);
        assertThat(nowait.get("group").asText()).isEqualTo("nowait");
        assertThat(nowait.get("heavyObjects").asLong()).isEqualTo(1);
        assertThat(nowait.get("syncOps").asLong()).isEqualTo(2080);
        assertThat(nowait.get("fatSectionsPerObject").asDouble()).isEqualTo(20.0);
        assertThat(nowait.get("opsPerFatSection").asDouble()).isEqualTo(2.0);
        assertThat(nowait.get("opsPerFlatSection").asDouble()).isEqualTo(97.1429);
        JsonNode wait = groups.get(1);
        assertThat(wait.get("group").asText()).isEqualTo("wait");
        assertThat(wait.get("heavyObjects").asLong()).isEqualTo(1);
        assertThat(wait.get("syncOps").asLong()).isEqualTo(8);
        assertThat(wait.get("opsPerFatSection").asDouble()).as("the wait, and the notifier's enter, notify and exit").isEqualTo(4.0);
        assertThat(wait.get("opsPerFlatSection").asDouble()).as("two enters before the wait, two exits after").isEqualTo(2.0);
        assertThat(deep.get("behaviour").get("sentences").toString())
                .contains("nowait group: 1 monitor contended (2,080 synchronisation operations), 20.00 fat sections each");
    }

    @Test
    void recursionIsCountedApartForMonitorsAndLocks() {
        assertCounts(lock(PREFIX + "Recursion"), 400, 100, 0, 300, 100);
        JsonNode reentrant = locks("java.util.concurrent.locks.ReentrantLock").stream()
                .filter(l -> l.get("firstSite").asText().contains(".recursion:")).findFirst().orElseThrow();
        assertCounts(reentrant, 200, 100, 0, 100, 100);
        assertThat(reentrant.get("kind").asText()).isEqualTo("juc");
    }

    @Test
    void waitInsideNestedLocksSplitsTheSectionAndKeepsTheRecursion() {
        JsonNode inner = lock(PREFIX + "Inner");
        assertCounts(inner, 3, 2, 0, 1, 3);
        assertThat(inner.get("waits").asLong()).isEqualTo(1);
        assertThat(inner.get("notifies").asLong()).isEqualTo(1);
        // the waiter's two enters (flat), its wait and the notifier's enter, notify and exit (fat: a thread
        // waits for a notification), the waiter's two exits (flat)
        assertThat(inner.get("fatSections").asLong()).isEqualTo(1);
        assertThat(inner.get("fatOps").asLong()).isEqualTo(4);
        assertThat(inner.get("flatSections").asLong()).isEqualTo(2);
        assertThat(inner.get("flatOps").asLong()).isEqualTo(4);
        assertThat(inner.get("lockedByOthers").asBoolean()).isTrue();
        assertCounts(lock(PREFIX + "Outer"), 1, 1, 0, 0, 1);
    }

    @Test
    void aFailedTryLockAndASlowLockOnAJucLock() {
        JsonNode l = locks("java.util.concurrent.locks.ReentrantLock").stream()
                .filter(r -> r.get("firstSite").asText().contains("jucLock")).findFirst().orElseThrow();
        assertCounts(l, 2, 2, 1, 0, 2);
        assertThat(l.get("tryFailures").asLong()).isEqualTo(1);
    }

    @Test
    void behaviourProbesAndEveryFormatShowTheSection() {
        JsonNode b = deep.get("behaviour");
        assertThat(b.get("objectsLocked").asLong()).isEqualTo(8);
        assertThat(b.get("objectsLockedByOthers").asLong()).isEqualTo(4); // Handoff, FatFlat, Inner, the jucLock one
        assertThat(b.get("sentences")).isNotEmpty();
        assertThat(deep.get("probes").get("classesInstrumented").asLong()).isGreaterThanOrEqualTo(3);
        assertThat(text).contains("deep mode: every acquisition in dev.lockscope.demo.deep.**")
                .contains(PREFIX + "FatFlat@").contains("lock behaviour:");
        assertThat(html).contains("<section id=\"deep\"").contains("\"deep\":{\"html\":");
    }

    /**
     * Issue 20 item 4: the counter locked by one thread only (first repetition 100%, never contended)
     * is the lock for which the library's reservation lock pays, and the report says so with the
     * benchmark row; the hand-off lock (first repetition 1 of 1,001) gets no such advice.
     */
    @Test
    void theOneThreadCounterIsAdvisedTheReservationLock() {
        JsonNode advice = deep.get("libraryLocks");
        assertThat(advice).as("library lock advice").isNotEmpty();
        JsonNode first = advice.get(0);
        assertThat(first.get("lockClass").asText()).isEqualTo(PREFIX + "Counter");
        assertThat(first.get("recommendation").asText()).isEqualTo("ReservationLock");
        assertThat(first.get("pays").asBoolean()).isTrue();
        assertThat(first.get("firstRepetitionPct").asDouble()).isEqualTo(100.0);
        assertThat(first.get("evidence").asText()).contains("PrimitiveTest");
        advice.forEach(a -> {
            if (!a.get("lockClass").asText().equals(PREFIX + "Counter")) {
                assertThat(a.get("pays").asBoolean()).as("advice %s", a).isFalse();
            }
        });
        assertThat(text).contains("library locks (lockscope-locks):").contains("Use ReservationLock: 100.0% of its 10,000 acquisitions");
        assertThat(html).contains("Library locks");
    }
}
