package dev.lockscope.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs one demo workload: {@code DemoMain <pattern> [--threads N] [--seconds S]}.
 * Prints {@code throughput: X ops/s} at the end, and the process's CPU over the run as {@code process cpu: Y cores}.
 */
public final class DemoMain {
    /** Every pattern, by name, with a one-line description. */
    public static final Map<String, String> PATTERNS = new TreeMap<>(Map.of(
            "large-cs-juc", "J9 park-contention report §5.2: three ReentrantLocks with 4/16/64 ms critical sections, taken in turn"
                    + " [--s1-ms A] [--s2-ms B] [--s3-ms C]",
            "large-cs-sync", "J9 park-contention report §5.2: the same with synchronized",
            "frequent-juc", "J9 park-contention report §5.3: two ReentrantLocks with 32 ms sections, chosen 75%/25%",
            "frequent-sync", "J9 park-contention report §5.3: the same with synchronized ([--seed N] for both)",
            "lock-table", "a lock table's entry mutexes, created and dropped per use: one lock site of many objects",
            "scale-global-lock", "issue 8: p µs parallel, c µs under one global lock; knee near (p + c) / c threads"
                    + " [--parallel-us P] [--critical-us C]",
            "scale-two-layers", "issue 8: an application lock hiding a Hashtable lock [--no-app-lock]"));

    static {
        PATTERNS.putAll(BlameScenarios.PATTERNS);
    }

    private DemoMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].equals("--help")) {
            System.out.println("usage: DemoMain <pattern> [--threads N] [--seconds S] [--seed N]");
            PATTERNS.forEach((k, v) -> System.out.printf("  %-22s %s%n", k, v));
            return;
        }
        String pattern = args[0];
        int threads = 16;
        double seconds = 10;
        Long seed = null;
        List<String> workloadArgs = new ArrayList<>(); // options of the workload itself
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                default -> workloadArgs.add(args[i]);
            }
        }
        Scenario scenario = null;
        try {
            scenario = BlameScenarios.forPattern(pattern, threads, workloadArgs);
        } catch (IllegalArgumentException e) {
            fail(e.getMessage());
        }
        if (scenario != null) {
            Truth.warmUp();
            scenario.run(seconds);
            Truth.lines().forEach(System.out::println);
            System.out.println("scenario " + pattern + " done");
            return;
        }
        if (!pattern.startsWith("scale-") && !pattern.startsWith("large-cs-") && !workloadArgs.isEmpty()) {
            fail("unknown argument '" + workloadArgs.get(0) + "'");
        }
        Workload w = switch (pattern) {
            case "large-cs-juc" -> workloadOf(() -> new LargeCriticalSection(false, workloadArgs));
            case "large-cs-sync" -> workloadOf(() -> new LargeCriticalSection(true, workloadArgs));
            case "frequent-juc" -> new FrequentlyAcquired(false, seed);
            case "frequent-sync" -> new FrequentlyAcquired(true, seed);
            case "lock-table" -> new LockTableEntries();
            case "scale-global-lock" -> workloadOf(() -> new GlobalLockRequests(workloadArgs));
            case "scale-two-layers" -> workloadOf(() -> new TwoLayerRequests(workloadArgs));
            default -> {
                fail("unknown pattern '" + pattern + "' (known: " + String.join(", ", PATTERNS.keySet()) + ")");
                yield null;
            }
        };
        long cpuBegin = processCpuNanos();
        long begin = System.nanoTime();
        long ops = Workload.runFor(w, threads, (long) (seconds * 1000));
        // over the whole run, the operations finished after the stop included (the J9 park-contention report §5.2.3 divides by
        // the total execution time): a 64 ms lock that 16 threads queue for takes a second to drain
        double elapsed = (System.nanoTime() - begin) / 1e9;
        System.out.printf(Locale.ROOT, "throughput: %.3f ops/s (%d ops, %d threads, %.1f s)%n", ops / elapsed, ops, threads, elapsed);
        // the process's CPU over the same time, as cores busy: the overhead harness's CPU per operation (the line
        // bench's ProcessCpu prints for the library workloads and parses; the harness's smoke run fails without it)
        System.out.printf(Locale.ROOT, "process cpu: %.4f cores%n", (processCpuNanos() - cpuBegin) / (elapsed * 1e9));
    }

    /** User + system CPU time of this process, all threads. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static Workload workloadOf(java.util.function.Supplier<Workload> create) {
        try {
            return create.get();
        } catch (IllegalArgumentException e) {
            fail(e.getMessage());
            return null;
        }
    }

    private static void fail(String message) {
        System.err.println("demo: " + message);
        System.exit(2);
    }
}
