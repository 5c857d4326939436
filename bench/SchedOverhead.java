import dev.lockscope.sched.SchedCollector;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * Overhead of scheduling collection: the same fixed-work workload in a child JVM, timed by the child
 * from "go" to done, with no collector, with perf, and with the /proc sampler, in interleaved
 * random order per round (one warm-up round first, not counted). Prints per mode the median wall
 * time, the median of per-round ratios to "none" for wall time and for the child's own CPU time
 * (user + system: the kernel's cost of writing switch records is charged to the child), and the
 * collector's own CPU (perf process or sampler thread) as a percentage of the run's wall time.
 *
 * <pre>bench/sched-overhead.sh [ROUNDS]</pre> (compiles this file to bench/target and runs both workloads)
 * WORKLOAD: "cpu" (2 threads, fixed arithmetic) or "handoff" (2 threads passing 200k items through a
 * SynchronousQueue: a context switch per item, the worst case for switch recording).
 */
public class SchedOverhead {
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("child")) {
            child(args[1]);
            return;
        }
        String workload = args.length > 0 ? args[0] : "handoff";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        List<String> modes = List.of("none", "perf", "schedstat");
        Map<String, List<Double>> times = new LinkedHashMap<>();
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        Map<String, List<Double>> cpuRatios = new LinkedHashMap<>();
        Map<String, List<Double>> collectorShare = new LinkedHashMap<>();
        Map<String, List<Double>> stop = new LinkedHashMap<>();
        modes.forEach(m -> {
            stop.put(m, new ArrayList<>());
            times.put(m, new ArrayList<>());
            ratios.put(m, new ArrayList<>());
            cpuRatios.put(m, new ArrayList<>());
            collectorShare.put(m, new ArrayList<>());
        });
        Random rnd = new Random(42);
        Path dir = Files.createTempDirectory("sched-overhead");
        long switches = 0;
        for (int r = 0; r <= rounds; r++) {
            List<String> order = new ArrayList<>(modes);
            Collections.shuffle(order, rnd);
            Map<String, double[]> round = new LinkedHashMap<>();
            for (String mode : order) {
                double[] ms = runOnce(workload, mode, dir.resolve(mode + ".sched"));
                round.put(mode, ms);
                if (mode.equals("perf") && r > 0) {
                    switches = Files.lines(dir.resolve("perf.sched")).filter(l -> l.startsWith("t\t")).count();
                }
            }
            if (r == 0) {
                continue; // warm-up round: page cache, perf binary, JIT of this harness
            }
            for (String m : modes) {
                times.get(m).add(round.get(m)[0]);
                ratios.get(m).add(round.get(m)[0] / round.get("none")[0]);
                cpuRatios.get(m).add(round.get(m)[1] / round.get("none")[1]);
                collectorShare.get(m).add(100 * Math.max(0, round.get(m)[2]) / round.get(m)[0]);
                stop.get(m).add(round.get(m)[3]);
            }
        }
        System.out.printf(Locale.ROOT, "workload %s, %d rounds, %d CPUs, Java %s, child %s, load average at end %s; "
                + "last perf run recorded %d transitions%n", workload, rounds,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                REALTIME ? "SCHED_FIFO 1" : "normal",
                Files.readString(Path.of("/proc/loadavg")).split(" ")[0], switches);
        System.out.printf(Locale.ROOT, "%-10s %10s %26s %26s %14s %10s%n", "mode", "wall ms", "wall ratio (min..max)",
                "child CPU ratio (min..max)", "collector CPU", "stop ms");
        for (String m : modes) {
            List<Double> q = ratios.get(m);
            List<Double> c = cpuRatios.get(m);
            System.out.printf(Locale.ROOT, "%-10s %10.1f %8.3f (%.3f..%.3f) %11.3f (%.3f..%.3f) %12.2f%% %10.1f%n", m,
                    median(times.get(m)), median(q), Collections.min(q), Collections.max(q), median(c),
                    Collections.min(c), Collections.max(c), median(collectorShare.get(m)), median(stop.get(m)));
        }
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    /** {wall ms, child CPU ms, collector CPU ms, stop ms (perf: conversion to .sched)} of one timed run. */
    static double[] runOnce(String workload, String mode, Path out) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        if (REALTIME) {
            cmd.addAll(List.of("chrt", "-f", "1")); // other load cannot preempt the child; perf is not RT
        }
        cmd.addAll(List.of(java, "-XX:+UseSerialGC", "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                SchedOverhead.class.getName(), "child", workload));
        Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream()));
        if (!"ready".equals(in.readLine())) {
            throw new IllegalStateException("child did not start");
        }
        SchedCollector c = mode.equals("none") ? null : SchedCollector.start(child.pid(), out, mode);
        child.getOutputStream().write("go\n".getBytes());
        child.getOutputStream().flush();
        String[] result = in.readLine().split(" ");
        child.waitFor(60, TimeUnit.SECONDS);
        double collectorMs = -1;
        double stopMs = 0;
        if (c != null) {
            long s0 = System.nanoTime();
            c.stop();
            stopMs = (System.nanoTime() - s0) / 1e6;
            collectorMs = c.collectorCpuNanos() / 1e6;
        }
        return new double[] {Double.parseDouble(result[0]), Double.parseDouble(result[1]), collectorMs, stopMs};
    }

    static volatile long sink;
    /** BENCH_RT=1: run the child under chrt -f 1 (needs root) to shield it from other load. */
    static final boolean REALTIME = "1".equals(System.getenv("BENCH_RT"));
    /** Work per timed run: about 0.3 s of each workload on an idle 2-CPU machine. */
    static final int SCALE = 100;

    static void child(String workload) throws Exception {
        // warm up the code paths before timing
        run(workload, 5);
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in)).readLine();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long c0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        run(workload, SCALE);
        long t1 = System.nanoTime();
        long c1 = os.getProcessCpuTime();
        System.out.println((t1 - t0) / 1e6 + " " + (c1 - c0) / 1e6);
    }

    static void run(String workload, int scale) throws Exception {
        if (workload.equals("cpu")) {
            Thread[] ts = new Thread[2];
            for (int i = 0; i < 2; i++) {
                ts[i] = new Thread(() -> {
                    long x = 0;
                    for (long k = 0; k < 4_000_000L * scale; k++) {
                        x += k * 31 ^ x;
                    }
                    sink = x;
                });
                ts[i].start();
            }
            for (Thread t : ts) {
                t.join();
            }
        } else {
            SynchronousQueue<Integer> q = new SynchronousQueue<>();
            int n = 2_000 * scale;
            Thread consumer = new Thread(() -> {
                try {
                    for (int i = 0; i < n; i++) {
                        sink += q.take();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            consumer.start();
            for (int i = 0; i < n; i++) {
                q.put(i);
            }
            consumer.join();
        }
    }
}
