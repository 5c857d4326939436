package dev.lockscope.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * Threads handing items over a SynchronousQueue for N seconds: a park and an unpark per hand-off,
 * so megabytes of events per second. Prints one line and exits with 7.
 */
public final class ParkStorm {
    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        SynchronousQueue<Integer> queue = new SynchronousQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            boolean producer = i % 2 == 0;
            Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        if (producer) {
                            queue.offer(1, 10, TimeUnit.MILLISECONDS);
                        } else {
                            queue.poll(10, TimeUnit.MILLISECONDS);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("park storm done");
        System.exit(7);
    }
}
