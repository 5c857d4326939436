package dev.lockscope.e2e;

import java.lang.management.ManagementFactory;

/**
 * One thread, {@code steal-spinner}, computes for the given wall-clock milliseconds and prints the CPU
 * time the JVM measured for it ({@code spinner cpuNanos=... wallNanos=...}): the truth a thread's CPU
 * time in the steal accounting is checked against.
 */
public final class SpinMain {
    private static volatile long sink;

    private SpinMain() {
    }

    public static void main(String[] args) throws Exception {
        long wallMs = Long.parseLong(args[0]);
        long[] measured = new long[2];
        Thread spinner = new Thread(() -> {
            long start = System.nanoTime();
            long deadline = start + wallMs * 1_000_000L;
            long x = 1;
            while (System.nanoTime() < deadline) {
                for (int i = 0; i < 10_000; i++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
                sink = x;
            }
            measured[0] = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            measured[1] = System.nanoTime() - start;
        }, "steal-spinner");
        spinner.start();
        spinner.join();
        System.out.println("spinner cpuNanos=" + measured[0] + " wallNanos=" + measured[1]);
    }
}
