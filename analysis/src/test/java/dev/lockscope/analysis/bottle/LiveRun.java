package dev.lockscope.analysis.bottle;

import dev.lockscope.sched.SchedCollector;
import dev.lockscope.sched.SchedFile;
import dev.lockscope.sched.SchedTrace;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Runs {@link BottleWorkload} in a child JVM under a scheduling collector. */
final class LiveRun {
    static final boolean REALTIME_ALLOWED = realtimeAllowed();
    final SchedTrace trace;
    final SchedTrace reread;
    final int mainTid;
    /** Each worker's CPU time as the workload measured it ({@code cpu NAME NANOS}): what its box's A should be. */
    private final Map<String, Long> cpuNanos;

    private LiveRun(SchedTrace trace, SchedTrace reread, int mainTid, Map<String, Long> cpuNanos) {
        this.trace = trace;
        this.reread = reread;
        this.mainTid = mainTid;
        this.cpuNanos = cpuNanos;
    }

    /** The CPU time the thread named {@code name} measured itself. */
    double cpu(String name) {
        Long nanos = cpuNanos.get(name);
        if (nanos == null) {
            throw new AssertionError("the workload printed no CPU time of " + name + ": " + cpuNanos);
        }
        return nanos;
    }

    static LiveRun run(Path dir, String source, String scenario, long unitMillis) throws Exception {
        return run(dir, source, scenario, unitMillis, false);
    }

    /** With {@code jfr}, the child also records {@code dir/SCENARIO.jfr} with JFR's default settings. */
    static LiveRun run(Path dir, String source, String scenario, long unitMillis, boolean jfr) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Bottle graphs assume no more runnable threads than CPUs (Du Bois et al. §2.3), as on the paper's
        // dedicated machine. On a shared machine the child runs under the lowest real-time priority
        // where that is allowed (root), so that other processes cannot preempt its workers; each run
        // is bounded (work is a fixed amount of CPU time) and the kernel's RT throttling still leaves
        // 5% to others. Elsewhere it runs normally, and a busy machine makes the tests skip. Not with
        // the /proc sampler: it runs in this JVM at normal priority and would be starved.
        List<String> cmd = new java.util.ArrayList<>();
        if (REALTIME_ALLOWED && source.equals("perf")) {
            cmd.addAll(List.of("chrt", "-f", "1"));
        }
        cmd.addAll(List.of(java, "-Xint", "-XX:+UseSerialGC", "-Xmx64m"));
        if (jfr) {
            cmd.add("-XX:StartFlightRecording:filename=" + dir.resolve(scenario + ".jfr"));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), BottleWorkload.class.getName(), scenario,
                Long.toString(unitMillis)));
        Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String ready = out.readLine();
            while (ready != null && !ready.startsWith("ready ")) {
                ready = out.readLine(); // JFR's startup lines go to stdout too
            }
            if (ready == null || !ready.startsWith("ready ")) {
                throw new AssertionError("workload did not start: " + ready);
            }
            int mainTid = Integer.parseInt(ready.substring(6).trim());
            Path file = dir.resolve(scenario + ".sched");
            SchedCollector collector = SchedCollector.start(child.pid(), file, source);
            Writer in = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8);
            in.write("go\n");
            in.flush();
            Map<String, Long> cpu = new ConcurrentHashMap<>();
            Thread reader = new Thread(() -> {
                try {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        String[] parts = line.split(" ");
                        if (parts.length == 3 && parts[0].equals("cpu")) {
                            cpu.put(parts[1], Long.parseLong(parts[2]));
                        }
                    }
                } catch (java.io.IOException e) {
                    // the child is gone: what it printed is read
                }
            }, "live-run-stdout");
            reader.start();
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("workload did not finish in 60 s");
            }
            reader.join(10_000);
            SchedTrace trace = collector.stop();
            return new LiveRun(trace, SchedFile.read(file), mainTid, Map.copyOf(cpu));
        } finally {
            child.destroyForcibly();
        }
    }

    private static boolean realtimeAllowed() {
        try {
            Process p = new ProcessBuilder("chrt", "-f", "1", "true").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    BottleGraph graph() {
        return BottleGraphs.whole(reread, ThreadClassifier.defaults());
    }

    static ThreadBox box(BottleGraph g, String name) {
        return g.threads().stream().filter(b -> b.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no box " + name + " in " + g.threads()));
    }

    static ThreadBox box(BottleGraph g, int tid) {
        return g.threads().stream().filter(b -> b.osTid() == tid).findFirst()
                .orElseThrow(() -> new AssertionError("no box for tid " + tid + " in " + g.threads()));
    }
}
