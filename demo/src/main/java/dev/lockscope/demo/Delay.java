package dev.lockscope.demo;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits a given number of microseconds without using a CPU: the scale demos model work with waits,
 * so their knee does not depend on how many cores the machine has. {@code Thread.sleep} rounds to
 * whole milliseconds on JDK 17; {@code parkNanos} without a blocker does not, and is not a lock
 * (lockscope records parks on blockers only).
 */
final class Delay {
    private Delay() {
    }

    static void micros(long micros) throws InterruptedException {
        long deadline = System.nanoTime() + micros * 1000;
        for (long left = micros * 1000; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }
}
