package dev.lockscope.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Eight threads taking one {@code ReentrantLock} for a short critical section for N seconds: a park and an unpark on
 * most hand-offs, tens of thousands a second. Prints the acquisitions and exits with 0.
 */
public final class LockStorm {
    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        ReentrantLock lock = new ReentrantLock();
        long[] counter = new long[1];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end) {
                    lock.lock();
                    try {
                        counter[0]++;
                        Thread.onSpinWait();
                    } finally {
                        lock.unlock();
                    }
                }
            }, "storm-" + i);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("acquisitions " + counter[0]);
    }
}
