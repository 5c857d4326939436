package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 8 acceptance: {@code lockscope scale} on the bundled workloads with known answers. Runs are
 * short (1–2 s per point, 3–4 points) because the machine is small and shared; the demos wait
 * rather than compute, so their knees do not depend on the number of cores.
 */
class ScaleE2EIT {
    @TempDir
    Path dir;

    private static List<String> demo(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Proc.JAVA, "-jar", Proc.DEMO_JAR.toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static List<String> demo(List<String> workloadOptions, String... args) {
        List<String> cmd = demo(args);
        cmd.addAll(workloadOptions);
        return cmd;
    }

    private static String[] scale(Path out, List<String> options, List<String> command) {
        List<String> args = new ArrayList<>(List.of("scale", "-o", out.toString(), "--format", "json"));
        args.addAll(options);
        args.add("--");
        args.addAll(command);
        return args.toArray(String[]::new);
    }

    private static JsonNode json(Proc p) throws Exception {
        assertThat(p.exitCode()).as("exit code; stderr:\n%s", p.err()).isZero();
        return new ObjectMapper().readTree(p.out());
    }

    @InJdk17Pass
    @Test
    void globalLockKneeNearParallelPlusCriticalOverCriticalAndTheLockRanksFirstWithItsOwner() throws Exception {
        // p = 6 ms, c = 2 ms: throughput n / 8 ms up to 1 / 2 ms, the knee near (p + c) / c = 4 threads
        List<Integer> steps = List.of(1, 2, 4, 8);
        Proc p = Proc.lockscope(dir, 240, scale(dir.resolve("global"), List.of("--threads", "1,2,4,8", "--duration", "2s"),
                demo("scale-global-lock", "--parallel-us", "6000", "--critical-us", "2000",
                        "--threads", "{threads}", "--seconds", "{seconds}")));
        JsonNode root = json(p);
        assertThat(root.get("points")).hasSize(4);
        for (JsonNode point : root.get("points")) {
            assertThat(point.get("throughput").isNumber()).as("point %s", point).isTrue();
            assertThat(Path.of(point.get("recording").asText())).isRegularFile();
        }
        assertThat(root.get("knee").isObject()).as("%s", root).isTrue();
        int knee = root.get("knee").get("threads").asInt();
        assertThat(Math.abs(steps.indexOf(knee) - steps.indexOf(4))).as("knee %d within one step of 4", knee).isLessThanOrEqualTo(1);

        JsonNode top = root.get("locks").get(0);
        assertThat(top.get("className").asText()).isEqualTo("java.util.concurrent.locks.ReentrantLock$NonfairSync");
        assertThat(top.get("layer").asText()).isEqualTo("application");
        assertThat(top.get("ownerFrames").get(0).asText()).startsWith("dev.lockscope.demo.GlobalLockRequests.underGlobalLock:");
        assertThat(top.get("ownerSource").asText()).isEqualTo("exact");
        assertThat(top.get("threadTimeNanos")).hasSize(4);
        assertThat(top.get("threadTimeNanos").get(3).asLong()).isGreaterThan(top.get("threadTimeNanos").get(1).asLong());
        assertThat(top.get("shareAfter").asDouble()).as("at 8 threads, half the time waits (6 + 2 of 16 ms run)")
                .isBetween(0.2, 0.8);

        Path out = dir.resolve("global");
        assertThat(out.resolve("scale.html")).isRegularFile();
        assertThat(Files.readString(out.resolve("scale.html"))).contains("<svg", "href=\"t8-c2.jfr\"".replace("c2", "c" + root.get("mainCpus").asInt()));
        assertThat(Files.readString(out.resolve("scale.txt"))).contains("throughput stops scaling at", "GlobalLockRequests.underGlobalLock");
        assertThat(p.err()).contains("[4/4] 8 threads").doesNotContain("Exception");
    }

    @InJdk17Pass
    @Test
    void twoLayersTopDownApplicationLockFirstThenTheJdkLockItHid() throws Exception {
        List<String> sweep = List.of("--threads", "1,4,8", "--duration", "2s");
        // 6 ms parallel, 1 ms set-up and 3 ms template load: at 8 threads either lock is saturated, so the
        // answer stays clear on a loaded machine whose timers run late
        List<String> work = List.of("--parallel-us", "6000", "--app-us", "1000", "--jdk-us", "3000");
        Proc app = Proc.lockscope(dir, 240, scale(dir.resolve("app"), sweep,
                demo(work, "scale-two-layers", "--threads", "{threads}", "--seconds", "{seconds}")));
        JsonNode withAppLock = json(app);
        assertThat(withAppLock.get("firstBottleneckLayer").asText()).as("%s\n%s", withAppLock, app.err()).isEqualTo("application");
        JsonNode appTop = withAppLock.get("locks").get(0);
        assertThat(appTop.get("className").asText()).endsWith("ReentrantLock$NonfairSync");
        assertThat(appTop.get("ownerMethod").asText()).contains("TwoLayerRequests.createSessionLocked");
        for (JsonNode lock : withAppLock.get("locks")) {
            if (lock.get("className").asText().equals("java.util.Hashtable")) {
                assertThat(lock.get("growth").asDouble()).as("the app lock hides the table's").isLessThan(0.01);
            }
        }

        Proc noApp = Proc.lockscope(dir, 240, scale(dir.resolve("no-app"), sweep,
                demo(work, "scale-two-layers", "--no-app-lock", "--threads", "{threads}", "--seconds", "{seconds}")));
        JsonNode withoutAppLock = json(noApp);
        assertThat(withoutAppLock.get("firstBottleneckLayer").asText()).as("%s\n%s", withoutAppLock, noApp.err()).isEqualTo("JDK");
        JsonNode jdkTop = withoutAppLock.get("locks").get(0);
        assertThat(jdkTop.get("className").asText()).isEqualTo("java.util.Hashtable");
        assertThat(jdkTop.get("kind").asText()).isEqualTo("monitor");
        assertThat(jdkTop.get("layer").asText()).isEqualTo("JDK");
        assertThat(jdkTop.get("ownerLayer").asText()).isEqualTo("application");
        assertThat(jdkTop.get("ownerMethod").asText()).contains("TwoLayerRequests.lookupTemplate");
        // the no-lock version scales further: its peak is higher
        assertThat(withoutAppLock.get("peak").get("throughput").asDouble())
                .isGreaterThan(withAppLock.get("peak").get("throughput").asDouble());
    }

    @InJdk25Pass
    @Test
    void cpuSweepWithTasksetFailedPointsAndTooManyCpus() throws Exception {
        // Not java itself: the agent and ActiveProcessorCount travel in JAVA_TOOL_OPTIONS. Two threads exits 3,
        // three threads prints no throughput; both are reported and the sweep goes on.
        String script = "echo cpus=$(nproc); "
                + "if [ {threads} -eq 2 ]; then exit 3; fi; "
                + "if [ {threads} -eq 3 ]; then echo no numbers here; exit 0; fi; "
                + "exec '" + Proc.JAVA + "' -jar '" + Proc.DEMO_JAR + "' scale-global-lock --threads {threads} --seconds {seconds}";
        int machine = Runtime.getRuntime().availableProcessors();
        int tooMany = machine + 2;
        Path out = dir.resolve("cpus");
        Proc p = Proc.lockscope(dir, 240, scale(out, List.of("--threads", "1,2,3", "--cpus", "1," + tooMany, "--duration", "1s"),
                List.of("sh", "-c", script)));
        JsonNode root = json(p);
        assertThat(p.err()).contains("asked for " + tooMany + " CPUs but this machine lets lockscope use");
        assertThat(root.get("notes").toString()).contains("asked for " + tooMany + " CPUs");
        JsonNode points = root.get("points");
        assertThat(points).hasSize(6);
        assertThat(points.get(0).get("cpus").asInt()).isEqualTo(1);
        assertThat(points.get(0).get("throughput").isNumber()).isTrue();
        assertThat(points.get(1).get("throughput").isNull()).isTrue();
        assertThat(points.get(1).get("failures").get(0).asText()).startsWith("exit code 3");
        assertThat(points.get(2).get("failures").get(0).asText()).startsWith("no throughput in its output");
        assertThat(points.get(3).get("cpus").asInt()).isEqualTo(tooMany);
        assertThat(points.get(3).get("throughput").isNumber()).isTrue();
        assertThat(root.get("mainCpus").asInt()).isEqualTo(tooMany);
        assertThat(Files.readString(out.resolve("t1-c1.log"))).contains("cpus=1", "-XX:ActiveProcessorCount=1");
        assertThat(Files.readString(out.resolve("t1-c" + tooMany + ".log"))).contains("cpus=" + machine,
                "-XX:ActiveProcessorCount=" + tooMany);
        assertThat(out.resolve("t1-c1.jfr")).isRegularFile();
        assertThat(p.err()).contains("FAILED: exit code 3", "FAILED: no throughput");
    }

    @InJdk25Pass
    @Test
    void ctrlCStopsCleanlyAndKeepsTheFinishedPoints() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(Proc.sigintIgnored(),
                "SIGINT is ignored in this process tree (started in the background without job control)");
        Path out = dir.resolve("interrupted");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", Proc.LOCKSCOPE_JAR.toString()));
        cmd.addAll(List.of(scale(out, List.of("--threads", "1,2,4", "--duration", "3s"),
                demo("scale-global-lock", "--threads", "{threads}", "--seconds", "{seconds}"))));
        Proc p = Proc.start(dir, cmd);
        // inside the second point's run: after "[2/3]", the point's JVM (the first point's has exited) runs its workers
        Proc.await(90, "the second point's workload running", () -> p.err().contains("[2/3]")
                && p.process.descendants().anyMatch(child -> {
                    try {
                        return Proc.hasThread(child, "worker-0");
                    } catch (java.io.IOException e) {
                        return false;
                    }
                }));
        assertThat(p.err()).as("second point started").contains("[2/3]");
        new ProcessBuilder("kill", "-INT", Long.toString(p.process.pid())).start().waitFor();
        assertThat(p.process.waitFor(90, TimeUnit.SECONDS)).as("stopped").isTrue();
        assertThat(p.exitCode()).as("stderr:\n%s", p.err()).isEqualTo(130);
        assertThat(p.err()).contains("interrupted after 1 of 3 runs").doesNotContain("Exception");
        JsonNode root = new ObjectMapper().readTree(out.resolve("scale.json").toFile());
        assertThat(root.get("points")).hasSize(1);
        assertThat(root.get("points").get(0).get("threads").asInt()).isEqualTo(1);
        assertThat(root.get("points").get(0).get("throughput").isNumber()).isTrue();
        assertThat(root.get("notes").toString()).contains("interrupted");
        assertThat(out.resolve("t1-c" + root.get("mainCpus").asInt() + ".jfr")).isRegularFile();
    }

    @Test
    void aPointWhoseRecordingIsUnreadableKeepsItsThroughput() throws Exception {
        // a command that leaves an empty .jfr behind: the point counts once, without its locks
        Path out = dir.resolve("empty");
        String script = "echo run >> '" + dir.resolve("runs.txt") + "'; : > '" + out + "/t{threads}-c{cpus}.jfr'; "
                + "echo 'throughput: 5 ops/s'";
        JsonNode root = json(Proc.lockscope(dir, 60, scale(out, List.of("--threads", "1"), List.of("sh", "-c", script))));
        assertThat(Files.readAllLines(dir.resolve("runs.txt"))).hasSize(1);
        assertThat(root.get("points").get(0).get("throughput").asDouble()).isEqualTo(5.0);
        assertThat(root.get("notes").toString()).contains("its locks are unknown").doesNotContain("run again");
    }

    @Test
    void mistakesAreOneLineWithExitCode2() throws Exception {
        Proc noPlaceholder = Proc.lockscope(dir, 60, "scale", "--", "java", "-version");
        assertThat(noPlaceholder.exitCode()).isEqualTo(2);
        assertThat(noPlaceholder.err().strip()).startsWith("lockscope: the command must contain {threads}").doesNotContain("\n");
        Proc badThreads = Proc.lockscope(dir, 60, "scale", "--threads", "0,2", "--", "x", "{threads}");
        assertThat(badThreads.exitCode()).isEqualTo(2);
        assertThat(badThreads.err().strip()).isEqualTo("lockscope: --threads values must be at least 1, not 0");
        Proc notANumber = Proc.lockscope(dir, 60, "scale", "--cpus", "1,two", "--", "x", "{threads}");
        assertThat(notANumber.exitCode()).isEqualTo(2);
        assertThat(notANumber.err().strip()).isEqualTo("lockscope: --cpus takes whole numbers, not 'two'");
        Proc badDuration = Proc.lockscope(dir, 60, "scale", "--duration", "soon", "--", "x", "{threads}");
        assertThat(badDuration.exitCode()).isEqualTo(2);
        assertThat(badDuration.err().strip()).startsWith("lockscope: --duration must be a duration");
        Proc badRegex = Proc.lockscope(dir, 60, "scale", "--throughput-regex", "(", "--", "x", "{threads}");
        assertThat(badRegex.exitCode()).isEqualTo(2);
        assertThat(badRegex.err().strip()).startsWith("lockscope: --throughput-regex is not a valid").doesNotContain("\n");
        Proc help = Proc.lockscope(dir, 60, "scale", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("{threads}", "--cpus", "taskset", "Ctrl-C", "--throughput-regex");
    }
}
