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
 * Kawachiya's T/S rounds (Fig. 6.15): an array of locks, each round enters every element once; thread T
 * does rounds 1-3, thread S rounds 4-6, T again rounds 7-9. Measured rounds: T's steady round (2), S's first
 * round (4: the reservation lock cancels every element here), S's steady round (5) and T's first round
 * after S (7: the reservation lock has lost T's reservation, the asymmetric ones have not). The rounds
 * before the measured one run in set-up; the other side's thread stays alive (parked) during the measurement.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 15)
public class RoundsBenchmark {

    static final int ELEMENTS = 2048;

    @Param({"synchronized", "ReentrantLock", "tasuki", "asymmetric", "asymmetric-tasuki", "reservation"})
    public String kind;

    /** round2: T's steady round; round4: S's first; round5: S's second; round7: T's first after S. */
    @Param({"round2", "round4", "round5", "round7"})
    public String round;

    Lock[] locks;
    Object[] monitors;
    int counter;

    /** Plays the rounds before the measured one; the measuring thread is T for rounds 2 and 7, S otherwise. */
    @Setup(Level.Iteration)
    public void playEarlierRounds() {
        locks = new Lock[ELEMENTS];
        monitors = new Object[ELEMENTS];
        for (int i = 0; i < ELEMENTS; i++) {
            locks[i] = kind.equals("synchronized") ? null : Locks.create(kind);
            monitors[i] = new Object();
        }
        switch (round) {
            case "round2":
                oneRound();
                break;
            case "round4":
                Locks.onOtherThread(() -> threeRounds()); // T's rounds 1-3
                break;
            case "round5":
                Locks.onOtherThread(() -> threeRounds());
                oneRound(); // S's round 4
                break;
            case "round7":
                threeRounds(); // T, rounds 1-3 (this thread)
                Locks.onOtherThread(() -> threeRounds()); // S, rounds 4-6
                break;
            default:
                throw new IllegalArgumentException(round);
        }
    }

    void threeRounds() {
        oneRound();
        oneRound();
        oneRound();
    }

    @Benchmark
    @OperationsPerInvocation(ELEMENTS)
    public int oneRound() {
        if (locks[0] == null) {
            for (Object m : monitors) {
                synchronized (m) {
                    counter++;
                }
            }
        } else {
            for (Lock l : locks) {
                l.lock();
                counter++;
                l.unlock();
            }
        }
        return counter;
    }

    @TearDown(Level.Iteration)
    public void endOtherThreads() {
        Locks.endOtherThreads();
    }
}
