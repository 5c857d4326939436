package dev.lockscope.demo;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Conditional waiting: two consumers wait for a flag; the producer sets it at 50 ms, calls
 * notifyAll (signalAll) and keeps the lock 20 ms more, so the woken consumers also contend to get
 * the lock back. Expected: ≈ 50 ms of wait per consumer with the producer as notifier (Object.wait: a
 * wait/notify lock's wait, blamed on the producer; Condition.await: a conditional wait kept apart); the
 * contention re-acquiring the lock is flagged as after-wait.
 */
final class WaitNotifyScenario implements Scenario {
    private final boolean intrinsic;
    private final Object monitor = new Object();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private boolean flag;

    WaitNotifyScenario(boolean intrinsic) {
        this.intrinsic = intrinsic;
    }

    @Override
    public void run(double seconds) throws InterruptedException {
        Timeline tl = new Timeline();
        tl.start("wait-consumer-1", 0, intrinsic ? this::consumeSync : this::consumeJuc);
        tl.start("wait-consumer-2", 0, intrinsic ? this::consumeSync : this::consumeJuc);
        tl.start("wait-producer", 50, intrinsic ? this::produceSync : this::produceJuc);
        tl.join();
    }

    private void consumeSync() throws InterruptedException {
        synchronized (monitor) {
            Truth.mark("wait");
            while (!flag) {
                monitor.wait();
            }
            Truth.mark("acquired");
            Thread.sleep(5);
        }
    }

    private void produceSync() throws InterruptedException {
        synchronized (monitor) {
            flag = true;
            Truth.mark("notify");
            monitor.notifyAll();
            Thread.sleep(20);
            Truth.mark("release");
        }
        Truth.mark("released");
    }

    private void consumeJuc() throws InterruptedException {
        lock.lock();
        try {
            Truth.mark("wait");
            while (!flag) {
                ready.await();
            }
            Truth.mark("acquired");
            Thread.sleep(5);
        } finally {
            lock.unlock();
        }
    }

    private void produceJuc() throws InterruptedException {
        lock.lock();
        try {
            flag = true;
            Truth.mark("notify");
            ready.signalAll();
            Thread.sleep(20);
            Truth.mark("release");
        } finally {
            lock.unlock();
        }
        Truth.mark("released");
    }
}
