package dev.lockscope.e2e;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Pool workers woken for work again and again (a trickle of trivial tasks, so each worker parks idle in
 * {@code ThreadPoolExecutor.getTask} and is unparked by the next task), beside two threads that contend for
 * a {@code ReentrantLock} held 1 ms at a time: the idle parks and the contended ones in one recording.
 */
public final class IdleTrickleMain {
    private IdleTrickleMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        ReentrantLock lock = new ReentrantLock();
        Runnable contend = () -> {
            for (int i = 0; i < 100; i++) {
                lock.lock();
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                } finally {
                    lock.unlock();
                }
            }
        };
        Thread a = new Thread(contend, "contender-a");
        Thread b = new Thread(contend, "contender-b");
        a.start();
        b.start();
        for (int i = 0; i < 200; i++) {
            pool.execute(() -> { });
            Thread.sleep(2);
        }
        a.join();
        b.join();
        pool.shutdown();
        System.out.println("terminated: " + pool.awaitTermination(10, TimeUnit.SECONDS));
    }
}
