package dev.lockscope.e2e;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A workload that only idles: a pool of four threads that ran one trivial task each and then waits
 * for work, and {@code main} waiting for the pool to terminate, which it does not, for a second. The
 * JVM then exits with the daemon workers still waiting: shutting the pool down would make them
 * contend for its lock on their way out, which is contention.
 */
public final class IdlePoolMain {
    private IdlePoolMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(4, task -> {
            Thread t = Executors.defaultThreadFactory().newThread(task);
            t.setDaemon(true);
            return t;
        });
        for (int i = 0; i < 4; i++) {
            pool.execute(() -> { });
        }
        boolean terminated = pool.awaitTermination(1, TimeUnit.SECONDS); // idle: nobody shut the pool down
        System.out.println("terminated early: " + terminated);
    }
}
