package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The bottle graph of virtual threads by their carriers ({@code record --sched}, JDK 25 and 21): 8 unnamed
 * virtual threads of one executor compute on 2 carriers, measuring from their carriers' own schedstat the
 * CPU time the carriers spent on them. The graph of the recording has one box for the 8, whose running time
 * is at least that truth (and not much more), and the carriers' boxes keep only the rest: the boxes' total is
 * exactly the graph's total without the split (the .sched alone), so nothing is counted twice.
 */
@InJdk25Pass
class VirtualThreadCarriersIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void jdk25CarriersRunningTimeGoesToTheirVirtualThreads() throws Exception {
        check(VirtualThreadsIT.jdk25());
    }

    @Test
    void jdk21CarriersRunningTimeGoesToTheirVirtualThreads() throws Exception {
        check(VirtualThreadsIT.jdk21());
    }

    private void check(String java) throws Exception {
        Path recording = dir.resolve("carriers.jfr");
        Proc run = Proc.lockscope(dir, 300, "record", "--sched", "-o", recording.toString(), "--", java,
                "-Djdk.virtualThreadScheduler.parallelism=2", "-cp", Path.of("target", "test-classes").toAbsolutePath().toString(),
                VirtualComputeMain.class.getName(), "8", "10", "10", "1000");
        assertThat(run.exitCode()).as(run.err()).isZero();
        long truth = Long.parseLong(match("truth-virtual-running (\\d+)", run.out()));
        long computeStart = Long.parseLong(match("truth-start (\\d+)", run.out()));
        Path sched = dir.resolve("carriers.sched");
        assertThat(sched).exists();
        String schedText = Files.readString(sched);
        assumeTrue(schedText.contains("\nsource\tperf\n"), "no perf here: the /proc fallback places runs only to 5 ms");
        long windowStart = Long.parseLong(match("\nwindow\t(\\d+)\t", schedText));
        assumeTrue(windowStart < computeStart, "perf attached after the workload began computing (a very loaded machine)");

        JsonNode split = bottle(recording);
        JsonNode plain = bottle(sched); // the same scheduling data without the recording: carriers as OS threads
        // The split can only be as right as the scheduling data: on a loaded machine perf's switch records
        // sometimes disagree with the kernel's own count of a thread's CPU time (a thread shown running where
        // it was not, or not where it was). Judge the split only where they agree on the carriers.
        Matcher carrierTruth = Pattern.compile("truth-carrier (\\d+) (\\d+)").matcher(run.out());
        long kernelCarriers = 0;
        long perfCarriers = 0;
        while (carrierTruth.find()) {
            kernelCarriers += Long.parseLong(carrierTruth.group(2));
            for (JsonNode t : plain.get("threads")) {
                if (t.get("osTid").asLong() == Long.parseLong(carrierTruth.group(1))) {
                    perfCarriers += t.get("runningNanos").asLong();
                }
            }
        }
        assumeTrue(Math.abs(perfCarriers - kernelCarriers) <= kernelCarriers / 20 + 20_000_000L,
                "perf's records gave the carriers " + perfCarriers + " ns on a CPU, the kernel counted " + kernelCarriers);
        assertThat(split.get("approximate").isNull()).as("no mount interval lost: " + split.get("approximate")).isTrue();

        // one box for the executor's 8 threads; a virtual thread of which the recording has no stack at all (no
        // CPU sample, park or sleep of it: seen once under load) cannot be told by its task's root and stays
        // in the box of unnamed virtual threads, "virtual" (the split's total is what is checked below)
        JsonNode virtualBox = null;
        int virtualThreads = 0;
        long virtualRunning = 0;
        for (JsonNode t : split.get("threads")) {
            if (t.has("virtualThreads")) {
                virtualThreads += t.get("virtualThreads").asInt();
                virtualRunning += t.get("runningNanos").asLong();
                if (t.get("name").asText().startsWith("virtual: dev.lockscope.e2e.VirtualComputeMain")) {
                    virtualBox = t;
                } else {
                    assertThat(t.get("name").asText()).as(split.toString()).isEqualTo("virtual");
                }
            }
        }
        assertThat(virtualThreads).as(split.toString()).isEqualTo(8);
        assertThat(virtualBox).as(split.toString()).isNotNull();
        assertThat(virtualBox.get("virtualThreads").asInt()).as(split.toString()).isGreaterThanOrEqualTo(7);
        // at least what the carriers' schedstat measured inside the compute loops; the rest of a mount (the
        // loop's sleep call, mounting itself) is little: generous for a loaded 2-core machine. The workload's sum
        // can pass the carriers' whole CPU time on a preempted machine (/proc's schedstat of a running thread is
        // brought up to date only at ticks and switches, so a loop's first read may predate time its carrier had
        // already run for the virtual thread before: 1,193 ms summed against 920 ms the carriers ran, once, at 5
        // runnable threads on 2 CPUs), and the virtual threads cannot have run more than their carriers did: the
        // kernel's and perf's counts of the carriers, which agree (above), bound the truth.
        long bound = Math.min(truth, Math.min(kernelCarriers, perfCarriers));
        assertThat(virtualRunning).as("truth %d (carriers: kernel %d, perf %d); graph %s; plain %s", truth, kernelCarriers,
                perfCarriers, split, plain).isBetween(bound * 97 / 100, truth * 13 / 10 + 30_000_000L);

        // no double counting: the boxes sum to the OS threads' running time, exactly
        assertThat(totalRunning(split)).isEqualTo(totalRunning(plain));
        Set<Long> carriers = new HashSet<>();
        long carriersAfter = 0;
        for (JsonNode t : split.get("threads")) {
            if (t.get("name").asText().startsWith("ForkJoinPool-1-worker-")) {
                carriers.add(t.get("osTid").asLong());
                carriersAfter += t.get("runningNanos").asLong();
            }
        }
        long carriersBefore = 0;
        for (JsonNode t : plain.get("threads")) {
            if (carriers.contains(t.get("osTid").asLong())) {
                carriersBefore += t.get("runningNanos").asLong();
            }
        }
        assertThat(carriers).isNotEmpty();
        // (how much the carriers keep is not bounded here: perf sometimes shows a thread running where it did not,
        // P above the CPU count, which lands on a carrier's own box; VirtualThreadBottleTest checks it exactly)
        assertThat(virtualRunning + carriersAfter).isEqualTo(carriersBefore);
    }

    private JsonNode bottle(Path file) throws Exception {
        Proc p = Proc.lockscope(dir, 120, "bottle", file.toString(), "--format", "json");
        assertThat(p.exitCode()).as(p.err()).isZero();
        return JSON.readTree(p.out()).get("bottleGraph");
    }

    private static long totalRunning(JsonNode graph) {
        long sum = 0;
        for (JsonNode t : graph.get("threads")) {
            sum += t.get("runningNanos").asLong();
        }
        return sum;
    }

    private static String match(String regex, String text) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as(regex + " in " + text).isTrue();
        return m.group(1);
    }
}
