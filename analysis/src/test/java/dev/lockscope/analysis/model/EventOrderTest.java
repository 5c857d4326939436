package dev.lockscope.analysis.model;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EventOrderTest {
    private static final ThreadRef T1 = new ThreadRef(1, 11, "t1");
    private static final ThreadRef T2 = new ThreadRef(2, 12, "t2");
    private static final String RL = "java.util.concurrent.locks.ReentrantLock$NonfairSync";

    /** Records what a visitor sees, one line per event. */
    private static final class Log implements RecordingVisitor {
        final List<String> lines = new ArrayList<>();

        @Override
        public void parkBegin(ParkWait p) {
            lines.add("begin " + p.thread().name() + " " + p.beginSeq());
        }

        @Override
        public void unpark(Unpark u) {
            lines.add("unpark " + u.seq());
        }

        @Override
        public void parkEnd(ParkWait p) {
            lines.add("end " + p.thread().name() + " " + p.beginSeq() + ".." + p.endSeq() + " at " + p.endNanos());
        }

        @Override
        public void monitorEnter(MonitorEnter e) {
            lines.add("enter " + e.endNanos());
        }
    }

    private static ParkWait park(ThreadRef t, long at, long end, long handoffAtPark, long handoffAtWake) {
        return new ParkWait(t, RL, 1, at, end, handoffAtPark, handoffAtWake, false, 0, null, 0, 0, List.of());
    }

    @Test
    void eventsArriveInTimeAndEndOrderWithinTheWindow() {
        Log log = new Log();
        EventOrder order = new EventOrder(8, List.of(log));
        order.unpark(new Unpark(T2, 30, 1, 1, "t1", RL, 1, List.of())); // committed before the park it wakes
        order.park(park(T1, 10, 40, 0, 1)); // one event, committed at the wake-up
        order.timed(50, new MonitorEnter(T2, "app.M", 1, 20, 50, null, List.of()));
        order.timed(45, new MonitorEnter(T1, "app.M", 1, 41, 45, null, List.of()));
        order.finish(new RecordingInfo(Path.of("x.jfr"), 0, 60, Map.of()));
        assertThat(log.lines).containsExactly("begin t1 0", "unpark 1", "end t1 0..1 at 40", "enter 45", "enter 50");
    }

    @Test
    void atEqualTimesABeginComesBeforeAnUnparkAndAnUnparkBeforeAnEnd() {
        Log log = new Log();
        EventOrder order = new EventOrder(8, List.of(log));
        order.park(park(T1, 30, 30, 4, 5));
        order.unpark(new Unpark(T2, 30, 5, 1, "t1", RL, 1, List.of()));
        order.finish(new RecordingInfo(Path.of("x.jfr"), 0, 100, Map.of()));
        assertThat(log.lines).containsExactly("begin t1 4", "unpark 5", "end t1 4..5 at 30");
    }
}
