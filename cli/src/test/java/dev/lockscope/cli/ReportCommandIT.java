package dev.lockscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code lockscope report} end to end on a real recording of {@code synchronized} contention. */
class ReportCommandIT {
    @TempDir
    static Path dir;
    static Path recording;
    static final String NO_LOCKSCOPE_EVENTS = "lockscope: warning: recording has no lockscope events: park contention "
            + "is missing (was it made with the lockscope agent?)";

    /** The contended monitor's class, to find it in the report. */
    static final class Guarded {
    }

    record Run(int exitCode, String out, String err) {
    }

    @BeforeAll
    static void record() throws Exception {
        recording = dir.resolve("sync.jfr");
        recordOneBlockedEntry(recording, new Guarded(), "report-waiter");
    }

    /** Records (plain JFR, monitor entries only) one thread named {@code waiterName} blocked on {@code monitor} for 5 ms. */
    static void recordOneBlockedEntry(Path file, Object monitor, String waiterName) throws Exception {
        try (Recording r = new Recording()) {
            r.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
            r.start();
            CountDownLatch held = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                awaitQuietly(held);
                synchronized (monitor) {
                    monitor.hashCode();
                }
            }, waiterName);
            waiter.start();
            synchronized (monitor) {
                held.countDown();
                while (waiter.getState() != Thread.State.BLOCKED) {
                    Thread.sleep(1);
                }
                Thread.sleep(5);
            }
            waiter.join();
            r.stop();
            r.dump(file);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs the CLI as main would, capturing what picocli writes to System.out/err. */
    static synchronized Run run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int code = LockscopeCli.execute(args);
            System.out.flush();
            System.err.flush();
            return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void textReportOnStdout() {
        Run run = run("report", recording.toString());
        assertThat(run.exitCode()).isZero();
        // the fixture records monitors only, with plain JFR
        assertThat(run.err().lines()).containsExactly(NO_LOCKSCOPE_EVENTS);
        // the first screen is the findings, then the table (issue 40)
        assertThat(run.out()).containsPattern("\\A(no significant lock contention: .*\\n)?top findings:\\n")
                .contains("\nlockscope: lock contention in sync.jfr\n")
                .contains("    lock " + Guarded.class.getName(), "first blocked by \"report-waiter\"");
        assertThat(run.out().lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
    }

    @Test
    void jsonReportToFile() throws Exception {
        Path json = dir.resolve("out.json");
        Run run = run("report", recording.toString(), "--format", "json", "-o", json.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("report written to " + json);
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.at("/recording/path").textValue()).isEqualTo(recording.toString());
        JsonNode lock = root.get("locks").get(0);
        assertThat(lock.get("kind").textValue()).isEqualTo("monitor");
        assertThat(lock.get("className").textValue()).isEqualTo(Guarded.class.getName());
        assertThat(lock.get("timesParked").longValue()).isEqualTo(1);
        assertThat(lock.get("firstThread").textValue()).isEqualTo("report-waiter");
    }

    @Test
    void printThresholdLeavesTheMonitorOut() {
        Run run = run("report", recording.toString(), "--print-threshold", "2");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("no contended locks with at least 2 parks")
                .doesNotContain(Guarded.class.getName() + " @");
    }

    @Test
    void collectionThresholdIsPassedToTheAnalysis() throws Exception {
        Run run = run("report", recording.toString(), "--collection-threshold", "1", "--format", "json");
        assertThat(run.exitCode()).isZero();
        assertThat(new ObjectMapper().readTree(run.out()).at("/options/collectionThreshold").longValue()).isEqualTo(1);
        // the metrics table honours the threshold (owner blame, a separate analysis, does not)
        assertThat(new ObjectMapper().readTree(run.out()).get("locks").toString()).doesNotContain(Guarded.class.getName());
    }

    private static void assertOneLineError(Run run, String expected) {
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("lockscope: ").contains(expected).doesNotContain("\tat ");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void missingFile() {
        assertOneLineError(run("report", dir.resolve("absent.jfr").toString()), "recording not found");
    }

    @Test
    void nonJfrFile() throws Exception {
        Path text = Files.writeString(dir.resolve("readme.jfr"), "not a recording");
        assertOneLineError(run("report", text.toString()), "not a JFR recording");
    }

    @Test
    void truncatedFile() throws Exception {
        byte[] bytes = Files.readAllBytes(recording);
        Path cut = Files.write(dir.resolve("cut.jfr"), Arrays.copyOf(bytes, bytes.length / 2));
        assertOneLineError(run("report", cut.toString()), "truncated");
    }

    @Test
    void negativeThreshold() {
        assertOneLineError(run("report", recording.toString(), "--print-threshold=-1"), "--print-threshold must be >= 0");
    }

    @Test
    void unwritableOutput() {
        Run run = run("report", recording.toString(), "-o", dir.resolve("no/such/dir/r.txt").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines()).hasSize(2).first().isEqualTo(NO_LOCKSCOPE_EVENTS);
        assertThat(run.err().lines().skip(1)).singleElement().asString().startsWith("lockscope: ").contains("cannot write");
    }

    @Test
    void helpDescribesTheOptions() {
        Run run = run("report", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("--format=FORMAT", "text, json, html", "--side=waiter|owner", "--print-threshold=N",
                "--collection-threshold=N", "-o, --output=FILE", "docs/json-schema.md", "docs/html-report.md",
                "--top=N", "--idle=REGEX", "--contention=REGEX", "README, section References").doesNotContain("seed 000");
    }

    @Test
    void collapsedStacksCarryTheJsonTotal() throws Exception {
        long json = 0;
        for (com.fasterxml.jackson.databind.JsonNode e : new ObjectMapper().readTree(
                run("report", recording.toString(), "--format", "json").out()).get("blame")) {
            json += e.get("nanos").longValue(); // collapsed stacks are the blame entries' waits
        }
        for (String side : new String[] {"waiter", "owner"}) {
            Run run = run("report", recording.toString(), "--format", "collapsed", "--side", side);
            assertThat(run.exitCode()).isZero();
            assertThat(run.out().lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum())
                    .isEqualTo(json);
            assertThat(run.out()).contains(Guarded.class.getName() + " at ");
        }
    }

    /** {@code --wrapper}: a frame the user names as a lock helper is skipped where waiter and owner methods are named. */
    @Test
    void wrapperSkipsTheProgramsOwnLockHelperWhenNamingMethods() {
        String helper = "lambda$recordOneBlockedEntry";
        Run plain = run("blame", recording.toString(), "--group-by", "waiter-method");
        assertThat(plain.exitCode()).as(plain.err()).isZero();
        assertThat(blameGroups(plain.out())).singleElement().asString().contains(helper);
        Run wrapped = run("blame", recording.toString(), "--group-by", "waiter-method", "--wrapper", "IT\\.lambda\\$record");
        assertThat(wrapped.exitCode()).as(wrapped.err()).isZero();
        assertThat(blameGroups(wrapped.out())).singleElement().asString().doesNotContain(helper).contains("Lambda");
        Run report = run("report", recording.toString(), "--group-by", "waiter-method", "--wrapper", "IT\\.lambda\\$record");
        assertThat(report.exitCode()).as(report.err()).isZero();
        assertThat(blameGroups(report.out())).singleElement().asString().doesNotContain(helper);
        assertOneLineError(run("report", recording.toString(), "--wrapper", "("), "lockscope: --wrapper: not a regular expression");
        assertThat(run("report", "--help").out()).contains("--wrapper=REGEX");
    }

    /** The group rows of a text blame tree ({@code share time count group}). */
    private static java.util.List<String> blameGroups(String text) {
        return text.lines().filter(l -> l.matches(" *[\\d.]+% .*")).toList();
    }

    @Test
    void locksAreSitesUnlessInstancesAreAskedFor() throws Exception {
        String sites = run("report", recording.toString()).out();
        assertThat(sites).contains("[1] monitor Guarded at ReportCommandIT.lambda$recordOneBlockedEntry$",
                "    lock " + Guarded.class.getName() + "\n");
        String instances = run("report", recording.toString(), "--instances").out();
        assertThat(instances).contains("[1] monitor Guarded@", "    lock " + Guarded.class.getName() + " @");
    }

    @Test
    void mergeSumsRecordingsBySiteAndShowsEachOnesWait() throws Exception {
        ObjectMapper json = new ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode one = json.readTree(run("report", recording.toString(), "--format", "json").out());
        Run merged = run("merge", recording.toString(), recording.toString(), "--format", "json");
        assertThat(merged.exitCode()).as(merged.err()).isZero();
        com.fasterxml.jackson.databind.JsonNode two = json.readTree(merged.out());
        long wait = one.get("locks").get(0).get("totalWaitNanos").longValue();
        assertThat(two.get("locks").get(0).get("totalWaitNanos").longValue()).isEqualTo(2 * wait);
        assertThat(two.get("locks").get(0).get("site").asText()).isEqualTo(one.get("locks").get(0).get("site").asText());
        assertThat(two.get("locks").get(0).get("waitPerRecordingNanos")).hasSize(2)
                .allSatisfy(n -> assertThat(n.longValue()).isEqualTo(wait));
        assertThat(two.get("recordings")).hasSize(2);
        assertThat(run("merge", "--help").exitCode()).isZero();
        Run single = run("merge", recording.toString());
        assertThat(single.exitCode()).isEqualTo(2);
        assertThat(single.err()).startsWith("lockscope: merge needs at least two recordings");
    }

    @Test
    void pprofAndHtmlToFiles() throws Exception {
        Path pprof = dir.resolve("wait.pb.gz");
        assertThat(run("report", recording.toString(), "--format", "pprof", "-o", pprof.toString()).exitCode()).isZero();
        byte[] gz = Files.readAllBytes(pprof);
        assertThat(gz[0] & 0xff).isEqualTo(0x1f); // gzip magic
        assertThat(gz[1] & 0xff).isEqualTo(0x8b);
        Path html = dir.resolve("r.html");
        Run run = run("report", recording.toString(), "--format", "html", "-o", html.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(Files.readString(html)).startsWith("<!doctype html>").contains(Guarded.class.getName());
    }

    @Test
    void unknownSide() {
        Run run = run("report", recording.toString(), "--format", "collapsed", "--side", "both");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("lockscope: Invalid value for option '--side': expected one of [waiter, owner]");
    }
}
