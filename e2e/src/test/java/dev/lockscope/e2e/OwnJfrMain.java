package dev.lockscope.e2e;

import jdk.jfr.Recording;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An application that uses JFR itself while lockscope records: every round it starts its own
 * recording, makes 50 short-lived {@link ReentrantLock}s contended by two threads (blockers the GC
 * collects after the round), contends on one long-lived lock held 5 ms at a time, then stops its
 * recording, writes it to {@code args[0]-N.jfr} and closes it. Prints "rounds: N" and exits 0.
 */
public final class OwnJfrMain {
    static final ReentrantLock LONG_LIVED = new ReentrantLock();

    private OwnJfrMain() {
    }

    public static void main(String[] args) throws Exception {
        String prefix = args[0];
        int rounds = Integer.parseInt(args[1]);
        for (int round = 0; round < rounds; round++) {
            try (Recording own = new Recording()) {
                own.enable("jdk.ThreadSleep");
                own.start();
                contendOnShortLivedLocks(50);
                contend(LONG_LIVED, 4, 5);
                own.stop();
                own.dump(Path.of(prefix + "-" + round + ".jfr"));
            }
            System.gc(); // the round's locks are garbage now
        }
        System.out.println("rounds: " + rounds);
    }

    private static void contendOnShortLivedLocks(int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            contend(new ReentrantLock(), 2, 2);
        }
    }

    /** {@code threads} threads take {@code lock} once each and hold it {@code holdMillis}. */
    private static void contend(ReentrantLock lock, int threads, long holdMillis) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    lock.lock();
                    try {
                        Thread.sleep(holdMillis);
                    } finally {
                        lock.unlock();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "own-jfr-worker");
            thread.start();
            all.add(thread);
        }
        start.countDown();
        for (Thread thread : all) {
            thread.join();
        }
    }
}
