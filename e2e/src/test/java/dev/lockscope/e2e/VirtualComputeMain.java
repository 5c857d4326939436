package dev.lockscope.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code VirtualComputeMain THREADS ROUNDS MILLIS DELAY_MILLIS}: after DELAY_MILLIS (printing
 * {@code truth-start <System.nanoTime>} then), THREADS unnamed virtual threads of one
 * {@code newVirtualThreadPerTaskExecutor} each compute ROUNDS times for about MILLIS ms of CPU, sleeping
 * 1 ms between rounds (so they unmount and come back on any carrier). Each round measures the CPU time
 * its carrier spent on it, from the carrier's own {@code /proc/thread-self/schedstat} (see
 * {@link #computeOnce}), and prints their sum as {@code truth-virtual-running <nanos>}: the time the
 * carriers ran these virtual threads, at least; {@code truth-carrier-changes} counts the readings left out, and
 * {@code truth-carrier <tid> <nanos>} gives each carrier's whole time on a CPU at the end, as the kernel counts it.
 * JDK 21+ (called reflectively: the test classes are Java 17).
 */
public final class VirtualComputeMain {
    private static final LongAdder RUNNING = new LongAdder();
    private static final LongAdder CHANGES = new LongAdder();
    /** The carriers seen, by OS thread id. */
    private static final java.util.Set<Long> CARRIERS = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static volatile long sink;

    private VirtualComputeMain() {
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        long millis = Long.parseLong(args[2]);
        Thread.sleep(Long.parseLong(args[3])); // scheduling data is collected from a moment after the JVM starts
        System.out.println("truth-start " + System.nanoTime());
        ExecutorService executor = (ExecutorService) java.util.concurrent.Executors.class
                .getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            done.add(executor.submit(() -> {
                for (int r = 0; r < rounds; r++) {
                    computeOnce(millis);
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        executor.shutdown();
        System.out.println("truth-virtual-running " + RUNNING.sum());
        System.out.println("truth-carrier-changes " + CHANGES.sum());
        for (long tid : CARRIERS) { // each carrier's whole time on a CPU, as the kernel counts it
            String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/schedstat"));
            System.out.println("truth-carrier " + tid + " " + stat.substring(0, stat.indexOf(' ')));
        }
    }

    /**
     * About {@code millis} of the carrier's CPU, measured by the carrier's own schedstat. Reading a file can
     * unmount a virtual thread (JDK 24+: a contended monitor inside), which then goes on on another carrier:
     * a reading counts only when the thread was on the same carrier before and after it, and a chunk of
     * computing only between two readings on one carrier (the compute loop itself never unmounts). So the
     * sum is at most what the carriers ran these virtual threads.
     */
    static void computeOnce(long millis) {
        long[] previous = reading();
        long measured = 0;
        long x = sink;
        while (measured < millis * 1_000_000L) {
            for (int i = 0; i < 200_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            long[] now = reading();
            if (previous != null && now != null && previous[0] == now[0]) {
                measured += now[1] - previous[1];
            } else {
                CHANGES.increment();
            }
            previous = now;
        }
        RUNNING.add(measured);
        sink = x;
    }

    /** {carrier's OS thread id, its time on a CPU in ns}, or null when the thread changed carriers while reading. */
    private static long[] reading() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self")); // "PID/task/TID"
            String s = Files.readString(Path.of("/proc").resolve(self).resolve("schedstat"));
            if (!self.equals(Files.readSymbolicLink(Path.of("/proc/thread-self")))) {
                return null;
            }
            long tid = Long.parseLong(self.getFileName().toString());
            CARRIERS.add(tid);
            return new long[] {tid, Long.parseLong(s.substring(0, s.indexOf(' ')))};
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
