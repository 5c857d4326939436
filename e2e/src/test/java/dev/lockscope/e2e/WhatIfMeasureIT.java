package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
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
 * {@code lockscope whatif --measure}, the experiment, on a demo and a real library. Issue 19: on the J9 park-contention report's
 * large-critical-section demo (three locks held 4, 16 and 64 ms by 16 threads in turn) lock 3's holds 1.5× as
 * long must slow the program down, resolved, and more than lock 1's; each JDK of the suite's two runs measures one
 * kind ({@code synchronized} on JDK 21+, where HotSpot's monitors changed most, {@code java.util.concurrent} on
 * JDK 17), two sites with at most 3 delayed runs each (16 runs of 3 s). Issue 43: on log4j2's synchronous file
 * appender it must pick the application's lock, {@code OutputStreamManager}'s, never JFR's, the JDK's or
 * lockscope's, and print a finite change with its interval (9 runs of 2 s). Each run writes its numbers to
 * {@code e2e/target/whatif/measure-<workload>.txt}.
 */
class WhatIfMeasureIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"juc", "sync"})
    void theLockThatSetsThePaceSlowsTheProgramMost(String kind) throws Exception {
        assumeTrue(kind.equals(Runtime.version().feature() >= 21 ? "sync" : "juc"), "the other JDK's run measures " + kind);
        String pattern = "large-cs-" + kind;
        List<String> args = new ArrayList<>(List.of("whatif", "--measure", "--site", "LargeCriticalSection." + kind + "3,"
                + "LargeCriticalSection." + kind + "1", "--runs", "3", "--format", "json", "--"));
        args.addAll(Proc.demoCommand(null, pattern, "--threads", "16", "--seconds", "3"));
        Proc run = Proc.lockscope(dir, 900, args.toArray(String[]::new));
        assertThat(run.exitCode()).as("stderr:\n%s", run.err()).isZero();
        JsonNode measured = new ObjectMapper().readTree(run.out()).get("measured");

        assertThat(measured).as(run.out()).hasSize(2);
        JsonNode first = measured.get(0);
        assertThat(first.get("site").textValue()).as(run.out()).contains("LargeCriticalSection." + kind + "3:");
        // holds 1.5x as long on the lock the program runs at the pace of: about -33% in theory
        assertThat(first.get("changePct").doubleValue()).as(run.out()).isLessThan(-10);
        assertThat(first.get("outcome").textValue()).as(run.out()).isEqualTo("resolved");
        assertThat(first.get("delayNanos").doubleValue()).as("half the 64-ms hold").isGreaterThan(10e6);
        assertThat(measured.get(1).get("changePct").doubleValue()).isGreaterThan(first.get("changePct").doubleValue());
        // beside it, the replay's prediction from the profiled run: halving lock 3 about doubles throughput
        assertThat(first.get("predicted").get("changePct").doubleValue()).as(run.out()).isGreaterThan(50);
        write(pattern, measured);
    }

    @InJdk17Pass
    @Test
    void onLog4jItMeasuresTheApplicationsLockWithAFiniteChangeAndItsInterval() throws Exception {
        Proc run = Proc.lockscope(dir, 900, "whatif", "--measure", "--top", "3", "--runs", "3", "--format", "json", "--",
                Proc.JAVA, "-cp", Proc.BENCH_JAR.toString(), "dev.lockscope.bench.LibraryWorkloads", "log4j2", "16", "1", "2");
        assertThat(run.exitCode()).as("stderr:\n%s", run.err()).isZero();
        JsonNode out = new ObjectMapper().readTree(run.out());

        List<String> candidates = new ArrayList<>();
        out.get("candidates").forEach(c -> candidates.add(c.textValue()));
        assertThat(candidates).as(run.out()).isNotEmpty();
        assertThat(candidates.get(0)).contains("OutputStreamManager.");
        assertThat(candidates).as("the application's locks only").noneMatch(c -> c.startsWith("java.") || c.startsWith("jdk.")
                || c.startsWith("sun.") || c.startsWith("com.sun.") || c.startsWith("dev.lockscope."));
        JsonNode first = out.get("measured").get(0);
        assertThat(first.get("site").textValue()).as(run.out()).contains("OutputStreamManager.");
        assertThat(first.get("outcome").textValue()).as(run.out()).isIn("resolved", "could not be resolved");
        assertThat(first.get("runs").intValue()).isBetween(3, 3);
        // a finite change inside its interval (JSON has no non-finite numbers: a refused one would be null)
        assertThat(first.get("changePct").isNumber()).as(run.out()).isTrue();
        assertThat(first.get("changePct").doubleValue()).isBetween(first.get("lowPct").doubleValue(), first.get("highPct").doubleValue());
        // the delay is a share of the lock's real hold (microseconds), not of the waited-for holds (milliseconds)
        assertThat(first.get("holdNanos").longValue()).as(run.out()).isBetween(100L, 1_000_000L);
        assertThat(first.get("delayNanos").longValue()).as(run.out()).isLessThan(1_000_000L);
        if (first.get("halvingPct").isNumber()) {
            assertThat(first.get("halvingPct").doubleValue()).as("Amdahl's bound").isLessThanOrEqualTo(100);
        }
        write("log4j2", out.get("measured"));
    }

    private static void write(String workload, JsonNode measured) throws Exception {
        StringBuilder numbers = new StringBuilder(workload + ":");
        for (JsonNode m : measured) {
            numbers.append(String.format(Locale.ROOT, " %s hold %d ns, delay %d ns: %s %s [%s, %s] in %d runs, halving %s (replay %s);",
                    m.get("site").textValue(), m.get("holdNanos").longValue(), m.get("delayNanos").longValue(),
                    m.get("outcome").textValue(), m.get("changePct"), m.get("lowPct"), m.get("highPct"), m.get("runs").intValue(),
                    m.get("halvingPct").isNull() ? m.get("halvingRefused").textValue() : m.get("halvingPct").toString(),
                    m.get("predicted").isNull() ? "-" : m.get("predicted").get("changePct") + " " + m.get("predicted").get("confidence").textValue()));
        }
        Path out = Path.of("target", "whatif");
        Files.createDirectories(out);
        Files.writeString(out.resolve("measure-" + workload + ".txt"), numbers + "\n");
    }
}
