package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 19 acceptance, Guerin et al.'s layer argument on the two-layer demo: a {@code Hashtable} monitor only ever
 * taken under the application's {@code ReentrantLock} is never waited for, so the recording's waits do not
 * show it. In deep mode ({@code deep=dev.lockscope.demo.**}, which sees the table's monitor at the demo's call
 * of {@code Hashtable.computeIfAbsent}), {@code whatif --remove} of the application lock must name the table as
 * the next bottleneck and predict the gain its holds allow; the truth is the demo run without the application
 * lock ({@code --no-app-lock}) against the demo as it is, both unprofiled. Without deep mode the answer must say
 * that a lock below cannot be seen and how to see it. Writes its numbers to {@code e2e/target/whatif/two-layers.txt}.
 *
 * <p>The demo's work and holds are timed waits (8 ms parallel, 2 ms under the application lock, 2 ms more under
 * both). The prediction is a cap (the table held all the time), so it lies above the truth where hand-offs are
 * slow: on a machine at load 20-35 the table was held a smaller share of the recorded run and its hand-offs slowed
 * the run without the application lock (JDK 25: +209% for a measured +91%, JDK 17: +157% for +93%; at lower load
 * +166% for +107% and +117% for +105%). The bound is therefore generous, 0.6× to 2.5× the measured ratio of
 * throughputs (at most 1.62 seen), while the replay alone, which cannot see the table, predicted 5.5-6.2× for a
 * measured 1.9-2.1× (2.7× or more of it).
 */
@InJdk25Pass
class WhatIfLayersIT {
    private static final Pattern THROUGHPUT = Pattern.compile("throughput: ([0-9.]+) ops/s");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void removingTheApplicationLockNamesTheHashtableBelowItFromDeepMode() throws Exception {
        Path deep = dir.resolve("deep.jfr");
        Proc recorded = Proc.run(dir, 120, Proc.demoCommand("file=" + deep + ",report=off,deep=dev.lockscope.demo.**",
                "scale-two-layers", "--threads", "16", "--seconds", "5"));
        assertThat(recorded.exitCode()).as("recorded run; stderr:\n%s", recorded.err()).isZero();
        Proc whatIf = Proc.lockscope(dir, 120, "whatif", deep.toString(), "--lock", "1", "--remove", "--format", "json");
        assertThat(whatIf.exitCode()).as(whatIf.err()).isZero();
        JsonNode p = JSON.readTree(whatIf.out());
        assertThat(p.get("lock").textValue()).as("%s", p).startsWith("java.util.concurrent.locks.ReentrantLock$");
        assertThat(p.get("topLockAfter").textValue()).as("the next bottleneck: %s", p).startsWith("java.util.Hashtable@");
        assertThat(p.get("bounded").booleanValue()).as("%s", p).isTrue();
        assertThat(p.get("ceiling").get("site").textValue()).contains("TwoLayerRequests.lockscope$lookupTemplate$computeIfAbsent");
        double predicted = 1 + p.get("changePct").asDouble() / 100;

        // the truth, unprofiled: a pair the machine's load disturbed is measured again, at most three pairs
        double measured = 0;
        int pairs = 0;
        while (pairs < 3 && !(predicted / measured >= 0.6 && predicted / measured <= 2.5)) {
            double withAppLock = throughput(demo());
            measured = throughput(demo("--no-app-lock")) / withAppLock;
            pairs++;
        }
        String numbers = String.format(Locale.ROOT, "two layers, application lock removed: predicted %+.1f%% (the replay "
                        + "alone %+.1f%%, bounded by %s held %.1f%% of the run), measured %+.1f%% (pair %d)%n",
                p.get("changePct").asDouble(), p.get("replayChangePct").asDouble(), p.get("ceiling").get("lock").textValue(),
                p.get("ceiling").get("utilisationPct").asDouble(), 100 * (measured - 1), pairs);
        Path out = Path.of("target", "whatif");
        Files.createDirectories(out);
        Files.writeString(out.resolve("two-layers.txt"), numbers);
        assertThat(predicted / measured).as(numbers).isBetween(0.6, 2.5);

        // without deep mode the table is not in the recording: the answer says so and how to see it
        Path plain = dir.resolve("plain.jfr");
        Proc plainRun = Proc.run(dir, 120, Proc.demoCommand("file=" + plain + ",report=off", "scale-two-layers",
                "--threads", "16", "--seconds", "3"));
        assertThat(plainRun.exitCode()).as("plain run; stderr:\n%s", plainRun.err()).isZero();
        Proc blind = Proc.lockscope(dir, 120, "whatif", plain.toString(), "--lock", "1", "--remove");
        assertThat(blind.exitCode()).as(blind.err()).isZero();
        assertThat(blind.out()).doesNotContain("java.util.Hashtable")
                .contains("(a lock below it) is never waited for").contains("lockscope record --deep");
    }

    /** One unprofiled run of the demo at 16 threads for 5 s. */
    private Proc demo(String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("scale-two-layers", "--threads", "16", "--seconds", "5"));
        args.addAll(List.of(options));
        Proc run = Proc.run(dir, 120, Proc.demoCommand(null, args.toArray(String[]::new)));
        assertThat(run.exitCode()).as("%s; stderr:\n%s", args, run.err()).isZero();
        return run;
    }

    private static double throughput(Proc run) throws Exception {
        Matcher m = THROUGHPUT.matcher(run.out());
        assertThat(m.find()).as("throughput line in %s", run.out()).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
