package dev.lockscope.analysis.bottle;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Child-JVM workloads with known bottle graphs (note §C3 T2–T5). Prints "ready TID-OF-MAIN", waits
 * for a line on stdin (the collector is running by then), runs, exits. Work is measured in CPU time
 * of the working thread, so preemption does not change the amount of work. At the end the program prints
 * {@code cpu NAME NANOS} per worker, its whole CPU time (its start-up included; taken as its last act, and
 * printed by main after the joins so that no worker writes to stdout while it is measured), and for
 * {@code main} the CPU time of its serial part: the truth of the running times.
 */
public final class BottleWorkload {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private static final Object LOCK = new Object();
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        long unit = Long.parseLong(args[1]) * 1_000_000L;
        String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
        System.out.println("ready " + self.substring(self.lastIndexOf('/') + 1));
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in)).readLine();
        switch (scenario) {
            case "parallel" -> run(List.of(unit, unit), false);
            case "serial-then-parallel" -> {
                long atGo = MX.getCurrentThreadCpuTime();
                spin(unit);
                long serial = MX.getCurrentThreadCpuTime() - atGo;
                run(List.of(unit, unit), false);
                System.out.println("cpu main " + serial);
            }
            case "imbalanced" -> run(List.of(unit, 3 * unit), false);
            case "monitor" -> run(List.of(unit, unit, unit, unit), true);
            default -> throw new IllegalArgumentException(scenario);
        }
    }

    private static void run(List<Long> work, boolean serialised) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        long[] cpu = new long[work.size()];
        for (int i = 0; i < work.size(); i++) {
            long w = work.get(i);
            int index = i;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                if (serialised) {
                    synchronized (LOCK) {
                        spin(w);
                    }
                } else {
                    spin(w);
                }
                cpu[index] = MX.getCurrentThreadCpuTime(); // published to main by the join
            }, "worker-" + (i + 1));
            threads.add(t);
            t.start();
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < threads.size(); i++) {
            System.out.println("cpu " + threads.get(i).getName() + " " + cpu[i]);
        }
    }

    /** Burns {@code nanos} of this thread's CPU time. */
    static void spin(long nanos) {
        long end = MX.getCurrentThreadCpuTime() + nanos;
        long x = 0;
        while (MX.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 1000; i++) {
                x += i * 31L ^ x;
            }
        }
        sink = x;
    }
}
