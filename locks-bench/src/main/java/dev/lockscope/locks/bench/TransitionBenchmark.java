package dev.lockscope.locks.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Kawachiya's TransitionTest (Table 5.5): the first acquisition of a fresh lock (anonymous to specific for
 * the reservation lock, owner selection for the asymmetric ones), and the first acquisition by a second
 * thread of a lock another thread has used (reserved to base: a cancellation; the asymmetric locks never
 * cancel). {@code synchronized} on JDK 17 with biased locking revokes a bias here.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 15)
public class TransitionBenchmark {

    @Param({"ReentrantLock", "tasuki", "asymmetric", "asymmetric-tasuki", "reservation"})
    public String kind;

    static final int BATCH = 4096;
    Lock[] fresh;
    Object[] freshMonitors;
    Lock[] usedByOther;
    Object[] monitorsUsedByOther;

    /** Fresh locks, and locks each taken once by another thread, which stays alive (parked). */
    @Setup(Level.Iteration)
    public void lockedByAnotherThread() {
        fresh = new Lock[BATCH];
        freshMonitors = new Object[BATCH];
        usedByOther = new Lock[BATCH];
        monitorsUsedByOther = new Object[BATCH];
        for (int i = 0; i < BATCH; i++) {
            fresh[i] = Locks.create(kind);
            freshMonitors[i] = new Object();
            usedByOther[i] = Locks.create(kind);
            monitorsUsedByOther[i] = new Object();
        }
        Locks.onOtherThread(() -> {
            for (int i = 0; i < BATCH; i++) {
                if (usedByOther[i] != null) {
                    usedByOther[i].lock();
                    usedByOther[i].unlock();
                }
                synchronized (monitorsUsedByOther[i]) {
                    Thread.onSpinWait();
                }
            }
        });
    }

    /** Each batch is made fresh before the measured iteration, so every operation is a first acquisition. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int firstAcquisitionOfAFreshLock() {
        int sum = 0;
        for (int i = 0; i < BATCH; i++) {
            Lock lock = fresh[i];
            lock.lock();
            sum += i;
            lock.unlock();
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int firstEntryOfAFreshMonitor() {
        int sum = 0;
        for (int i = 0; i < BATCH; i++) {
            synchronized (freshMonitors[i]) {
                sum += i;
            }
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int firstAcquisitionBySecondThread() {
        int sum = 0;
        for (int i = 0; i < BATCH; i++) {
            Lock lock = usedByOther[i];
            lock.lock();
            sum += i;
            lock.unlock();
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int firstMonitorEntryBySecondThread() {
        int sum = 0;
        for (int i = 0; i < BATCH; i++) {
            synchronized (monitorsUsedByOther[i]) {
                sum += i;
            }
        }
        return sum;
    }

    @TearDown(Level.Iteration)
    public void endOtherThreads() {
        Locks.endOtherThreads();
    }
}
