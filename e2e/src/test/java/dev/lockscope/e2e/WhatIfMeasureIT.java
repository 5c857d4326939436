package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 19 acceptance, the experiment: {@code lockscope whatif --measure} on seed 000's large-critical-section
 * demo (three locks held 4, 16 and 64 ms by 16 threads in turn) must rank lock 3 first, the lock whose longer
 * holds slow the program down. Lock 3's sensitivity is 1 in theory (the demo runs at its pace); the bound is
 * generous (a loaded 2-core machine delays the delayed releases' wake-ups and the runs' throughput alike), and
 * the ranking is the check. One repeat (8 runs of 3 s; two repeats took 5 minutes per demo on the loaded
 * 2-core machine and ranked lock 3 first at 1.30 and 1.03, the others within 0.3 of 0). Each run writes its
 * numbers to {@code e2e/target/whatif/measure-<pattern>.txt}. Each JDK of the suite's two runs measures one kind (44 s
 * each; the suite is at its 30-minute budget): {@code synchronized} on JDK 21+, where HotSpot's monitors changed
 * most (lightweight locking, virtual threads blocking on monitors), {@code java.util.concurrent} on JDK 17.
 */
class WhatIfMeasureIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"juc", "sync"})
    void theLockThatSetsThePaceIsTheMostSensitive(String kind) throws Exception {
        assumeTrue(kind.equals(Runtime.version().feature() >= 21 ? "sync" : "juc"), "the other JDK's run measures " + kind);
        String pattern = "large-cs-" + kind;
        List<String> args = new ArrayList<>(List.of("whatif", "--measure", "--delay", "50", "--repeat", "1", "--format",
                "json", "--"));
        args.addAll(Proc.demoCommand(null, pattern, "--threads", "16", "--seconds", "3"));
        Proc run = Proc.lockscope(dir, 900, args.toArray(String[]::new));
        assertThat(run.exitCode()).as("stderr:\n%s", run.err()).isZero();
        JsonNode measured = new ObjectMapper().readTree(run.out()).get("measured");

        assertThat(measured).as(run.out()).hasSize(3);
        JsonNode first = measured.get(0);
        assertThat(first.get("site").textValue()).as(run.out()).contains("LargeCriticalSection." + kind + "3:");
        assertThat(first.get("sensitivity").doubleValue()).as(run.out()).isGreaterThan(0.3);
        assertThat(first.get("delayNanos").doubleValue()).as("each delayed release waited").isGreaterThan(1e6);
        // beside it, the replay's prediction from the profiled run: halving lock 3 about doubles throughput
        assertThat(first.get("predicted").get("changePct").doubleValue()).as(run.out()).isGreaterThan(50);
        StringBuilder numbers = new StringBuilder(pattern + ":");
        for (JsonNode m : measured) {
            numbers.append(String.format(Locale.ROOT, " %s sensitivity %.2f [%.2f, %.2f] halving %+.1f%% (replay %s);",
                    m.get("site").textValue(), m.get("sensitivity").doubleValue(), m.get("lowSensitivity").doubleValue(),
                    m.get("highSensitivity").doubleValue(), m.get("halvingPct").doubleValue(),
                    m.get("predicted").isNull() ? "-" : String.format(Locale.ROOT, "%+.1f%% %s",
                            m.get("predicted").get("changePct").doubleValue(), m.get("predicted").get("confidence").textValue())));
        }
        Path out = Path.of("target", "whatif");
        Files.createDirectories(out);
        Files.writeString(out.resolve("measure-" + pattern + ".txt"), numbers + "\n");
    }
}
