package dev.lockscope.locks.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Kawachiya's PrimitiveTest (Table 5.4): one thread, no contention, the cost of an outermost and of a
 * recursive acquire+release, with the lock flat (or reserved) and fat. The recursive callee is not inlined,
 * so C2 cannot merge the nested lock with the outer one. {@code noLock} is the same body without a lock.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PrimitiveBenchmark {

    /** "synchronized" runs only the synchronized and noLock methods (run-jmh.sh selects them so). */
    @Param({"ReentrantLock", "tasuki", "asymmetric", "asymmetric-tasuki", "reservation"})
    public String kind;

    /** flat: never contended (reserved/owned for the biased locks); fat: inflated for good by a wait. */
    @Param({"flat", "fat"})
    public String mode;

    Lock lock;
    final Object monitor = new Object();
    int counter;

    @Setup
    public void setUp() {
        lock = Locks.create(kind);
        if (mode.equals("fat")) {
            Locks.inflate(monitor);
        }
        if (lock != null) {
            if (mode.equals("fat")) {
                Locks.inflateForGood(lock);
            }
            lock.lock(); // the first acquisition reserves / sets the owner: measure the steady state
            lock.unlock();
        }
    }

    @Benchmark
    public int noLock() {
        return ++counter;
    }

    @Benchmark
    public int lockOutermost() {
        lock.lock();
        try {
            return ++counter;
        } finally {
            lock.unlock();
        }
    }

    @Benchmark
    public int lockRecursive() {
        lock.lock();
        try {
            return lockedInner();
        } finally {
            lock.unlock();
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    int lockedInner() {
        lock.lock();
        try {
            return ++counter;
        } finally {
            lock.unlock();
        }
    }

    @Benchmark
    public int synchronizedOutermost() {
        synchronized (monitor) {
            return ++counter;
        }
    }

    @Benchmark
    public int synchronizedRecursive() {
        synchronized (monitor) {
            return synchronizedInner();
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    int synchronizedInner() {
        synchronized (monitor) {
            return ++counter;
        }
    }
}
