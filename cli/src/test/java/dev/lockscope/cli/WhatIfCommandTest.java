package dev.lockscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code lockscope whatif} on a real recording of one thread blocked on a monitor another holds. */
class WhatIfCommandTest {
    @TempDir
    static Path dir;
    static Path recording;

    /** The contended monitor's class, to find it in the output. */
    static final class Catalog {
    }

    @BeforeAll
    static void record() throws Exception {
        recording = dir.resolve("sync.jfr");
        ReportCommandIT.recordOneBlockedEntry(recording, new Catalog(), "whatif-waiter");
    }

    @Test
    void withoutALockEveryLockWaitedForIsRankedWithTheAssumptions() {
        ReportCommandIT.Run run = ReportCommandIT.run("whatif", recording.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("what would help: each lock's holds 0.5× as long")
                .contains("Catalog at ReportCommandIT.") // the lock named as the table's row
                .contains("assumptions:\n  - work outside the changed holds");
    }

    @Test
    void oneLockByRankAsJson() throws Exception {
        ReportCommandIT.Run run = ReportCommandIT.run("whatif", recording.toString(), "--lock", "1", "--factor", "0.25",
                "--format", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode p = new ObjectMapper().readTree(run.out());
        assertThat(p.get("lock").textValue()).startsWith(Catalog.class.getName() + "@");
        assertThat(p.get("kind").textValue()).isEqualTo("monitor");
        assertThat(p.get("factor").doubleValue()).isEqualTo(0.25);
        assertThat(p.get("holds").intValue()).isPositive();
        // the same lock by its class@id
        ReportCommandIT.Run byName = ReportCommandIT.run("whatif", recording.toString(), "--lock", p.get("lock").textValue());
        assertThat(byName.exitCode()).as(byName.err()).isZero();
        assertThat(byName.out()).startsWith("what if the " + p.get("lock").textValue() + "'s holds took 0.5× as long");
        // removed, into a file: a plain recording cannot show a lock below, and the answer says how to see one
        java.nio.file.Path file = dir.resolve("removed.txt");
        ReportCommandIT.Run removed = ReportCommandIT.run("whatif", recording.toString(), "--lock", "1", "--remove",
                "-o", file.toString());
        assertThat(removed.exitCode()).as(removed.err()).isZero();
        assertThat(Files.readString(file)).contains("excluded nobody").contains("lockscope record --deep");
    }

    @Test
    void mistakesAreOneLine() throws Exception {
        String rec = recording.toString();
        assertOneLineError(ReportCommandIT.run("whatif", dir.resolve("missing.jfr").toString()), "recording not found");
        // how many depends on the JDK (JDK 25's own monitors may be contended in the recording too)
        ReportCommandIT.Run tooHigh = ReportCommandIT.run("whatif", rec, "--lock", "99");
        assertOneLineError(tooHigh, "--lock 99: the recording has ");
        assertThat(tooHigh.err()).containsPattern("has (1 lock|[2-9] locks) waited for \\(ranks 1 to [1-9], as `lockscope report --instances` lists them\\)");
        assertOneLineError(ReportCommandIT.run("whatif", rec, "--lock", "app.Nope@1"), "no such lock in the recording");
        assertOneLineError(ReportCommandIT.run("whatif", rec, "--site", "Nowhere.method"), "no hold at a site containing 'Nowhere.method'");
        assertOneLineError(ReportCommandIT.run("whatif", rec, "--remove"), "--remove needs --lock");
        assertOneLineError(ReportCommandIT.run("whatif", rec, "--lock", "1", "--factor", "-1"), "--factor must be between 0 and 1000");
        assertOneLineError(ReportCommandIT.run("whatif", rec, "--format", "xml"), "unknown format 'xml'");
        assertOneLineError(ReportCommandIT.run("whatif", rec, "--format", "html"), "--format html is the page of --measure");
        assertOneLineError(ReportCommandIT.run("whatif", rec, rec), "one recording, not 2 arguments (a command needs --measure)");
        assertOneLineError(ReportCommandIT.run("whatif", "--measure", "--lock", "1", "--", "java", "-version"),
                "--measure names lock sites with --site");
        assertOneLineError(ReportCommandIT.run("whatif", "--measure", "--delay", "0", "--", "java", "-version"),
                "--delay must be between 0 and 400 percent");
        assertOneLineError(ReportCommandIT.run("whatif", Files.writeString(dir.resolve("x.jfr"), "hello").toString()), "");
    }

    private static void assertOneLineError(ReportCommandIT.Run run, String expected) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("lockscope: ").contains(expected).doesNotContain("\tat ");
        assertThat(run.err().lines().filter(l -> !l.startsWith("lockscope: warning:"))).hasSize(1);
    }
}
