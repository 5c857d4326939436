package dev.lockscope.analysis;

import dev.lockscope.agent.boot.LockSummaryEvent;
import dev.lockscope.agent.boot.ParkEvent;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Writes a real JFR recording with hand-made lockscope park events and real {@code synchronized}
 * contention, so the analysis is tested on what the reader actually sees. Threads are ordered with
 * latches, so counts, peaks and first threads are exact; only durations depend on the clock.
 */
final class RecordedScenario {
    static final String OVERLAP = "test.OverlapBlocker";
    static final int OVERLAP_HASH = 0x100;
    static final String SEQUENTIAL = "test.SequentialBlocker";
    static final int SEQUENTIAL_HASH = 0x200;
    static final String OPEN = "test.OpenBlocker";
    static final int OPEN_HASH = 0x300;

    /** The monitor the scenario contends on; its own class so it is easy to find. */
    static final class ContendedMonitor {
    }

    private RecordedScenario() {
    }

    /** One park as the agent records it: one Park event, begun at the park and committed at the wake-up. */
    static final class Park {
        private final ParkEvent event = new ParkEvent();

        Park(String blockerClass, int blockerHash) {
            event.begin();
            event.blockerClass = blockerClass;
            event.blockerHash = blockerHash;
        }

        void end() {
            event.handoffAtWake = 1;
            event.commit();
        }
    }

    static Path record(Path dir) throws Exception {
        FlightRecorder.register(ParkEvent.class);
        FlightRecorder.register(LockSummaryEvent.class);
        Path file = dir.resolve("scenario.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("lockscope.Park").withStackTrace();
            recording.enable("lockscope.LockSummary");
            recording.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
            overlappingParks();
            sequentialParks();
            openPark();
            monitorContention();
            recording.stop();
            recording.dump(file);
        }
        return file;
    }

    /** overlap-A parks, overlap-B parks while A is parked, A returns, then B: peak 2. */
    private static void overlappingParks() throws Exception {
        CountDownLatch aParked = new CountDownLatch(1);
        CountDownLatch bParked = new CountDownLatch(1);
        CountDownLatch aReturned = new CountDownLatch(1);
        Thread a = new Thread(() -> {
            Park p = new Park(OVERLAP, OVERLAP_HASH);
            aParked.countDown();
            await(bParked);
            sleep(10);
            p.end();
            aReturned.countDown();
        }, "overlap-A");
        // B returns only after A did, however late A is scheduled (sleeps alone raced under load)
        Thread b = new Thread(() -> {
            await(aParked);
            Park p = new Park(OVERLAP, OVERLAP_HASH);
            bParked.countDown();
            await(aReturned);
            sleep(20);
            p.end();
        }, "overlap-B");
        a.start();
        b.start();
        a.join();
        b.join();
    }

    /** seq-1, seq-2, seq-3 park one after another on the same blocker, 5 ms each. */
    private static void sequentialParks() throws Exception {
        for (int i = 1; i <= 3; i++) {
            Thread t = new Thread(() -> {
                Park p = new Park(SEQUENTIAL, SEQUENTIAL_HASH);
                sleep(5);
                p.end();
            }, "seq-" + i);
            t.start();
            t.join();
        }
    }

    /**
     * open-A parks and the recording stops before it returns: no Park event exists, only the agent's
     * summary of the blocker, written as the agent writes it at a chunk end.
     */
    private static void openPark() throws Exception {
        Thread t = new Thread(() -> new Park(OPEN, OPEN_HASH), "open-A");
        t.start();
        t.join();
        LockSummaryEvent summary = new LockSummaryEvent();
        summary.blockerClass = OPEN;
        summary.blockerHash = OPEN_HASH;
        summary.collecting = true;
        summary.timesParked = 1;
        summary.parkedNow = 1;
        summary.peakParked = 1;
        summary.firstThread = "open-A";
        summary.firstFrames = "test.Open.park:1\ntest.Open.run:2";
        summary.commit();
    }

    /**
     * monitor-holder holds a monitor until monitor-waiter is seen blocked entering it, then 20 ms
     * more: the waiter is certainly blocked on entry, however slowly it is scheduled.
     */
    private static void monitorContention() throws Exception {
        Object monitor = new ContendedMonitor();
        CountDownLatch held = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            await(held);
            synchronized (monitor) {
                monitor.hashCode();
            }
        }, "monitor-waiter");
        Thread holder = new Thread(() -> {
            synchronized (monitor) {
                held.countDown();
                while (waiter.getState() != Thread.State.BLOCKED) {
                    sleep(1);
                }
                sleep(20);
            }
        }, "monitor-holder");
        holder.start();
        waiter.start();
        holder.join();
        waiter.join();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
