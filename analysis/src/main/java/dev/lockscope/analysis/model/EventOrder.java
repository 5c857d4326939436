package dev.lockscope.analysis.model;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Puts the events of a recording into the order {@link RecordingVisitor} promises, through two small
 * reorder windows, and pairs park begins with their ends.
 *
 * <p>JFR delivers events in commit order, chunk by chunk; lockscope's events carry a global sequence
 * number taken a moment before the commit, so two threads' events may arrive slightly out of
 * {@code seq} order (and JFR's own events slightly out of end order across chunk boundaries). Each
 * window holds at most {@code capacity} events and always releases the smallest, which repairs any
 * disorder shorter than the window. Memory is bounded by the windows and the parks open at a time.
 *
 * <p>{@link RecordingReader} feeds it from a file, {@link LockRecording#replay} from lists; a test can
 * feed it a synthetic stream of any length.
 */
public final class EventOrder {
    /** Ranks at an equal sequence number: a park begin, then unparks, then park ends (u.seq &lt;= endSeq wakes). */
    private static final int BEGIN = 0;
    private static final int UNPARK = 1;
    private static final int END = 2;

    private record Pending(long key, int rank, long arrival, Object event) {
    }

    /** A {@code lockscope.ParkEnd}, before it is paired with its begin. */
    public record ParkEnd(long tid, long beginSeq, long endNanos, long endSeq, boolean timedOut) {
    }

    private static final Comparator<Pending> ORDER = Comparator.comparingLong(Pending::key)
            .thenComparingInt(Pending::rank).thenComparingLong(Pending::arrival);

    private final int capacity;
    private final List<RecordingVisitor> visitors;
    private final PriorityQueue<Pending> bySeq = new PriorityQueue<>(ORDER);
    private final PriorityQueue<Pending> byEndTime = new PriorityQueue<>(ORDER);
    /** Open parks by thread, then by begin sequence number. */
    private final Map<Long, Map<Long, ParkWait>> openParks = new HashMap<>();
    private long arrivals;

    /** @param capacity events each window holds before it releases the smallest */
    public EventOrder(int capacity, List<RecordingVisitor> visitors) {
        this.capacity = capacity;
        this.visitors = List.copyOf(visitors);
    }

    public void parkBegin(ParkWait open) {
        addBySeq(new Pending(open.beginSeq(), BEGIN, arrivals++, open));
    }

    public void parkEnd(ParkEnd end) {
        addBySeq(new Pending(end.endSeq(), END, arrivals++, end));
    }

    public void unpark(Unpark u) {
        addBySeq(new Pending(u.seq(), UNPARK, arrivals++, u));
    }

    /** A JFR event (monitor enter or wait, CPU sample, sleep, park, thread start or end), released in end-time order. */
    public void timed(long endNanos, Object event) {
        byEndTime.add(new Pending(endNanos, 0, arrivals++, event));
        if (byEndTime.size() > capacity) {
            deliverTimed(byEndTime.poll().event());
        }
    }

    /** Releases everything still held, then tells the visitors that the recording is over. */
    public void finish(RecordingInfo info) {
        while (!bySeq.isEmpty()) {
            deliverOurs(bySeq.poll());
        }
        while (!byEndTime.isEmpty()) {
            deliverTimed(byEndTime.poll().event());
        }
        visitors.forEach(v -> v.finish(info));
    }

    private void addBySeq(Pending p) {
        bySeq.add(p);
        if (bySeq.size() > capacity) {
            deliverOurs(bySeq.poll());
        }
    }

    private void deliverOurs(Pending p) {
        Object event = p.event();
        if (event instanceof ParkWait open) {
            Map<Long, ParkWait> ofThread = openParks.computeIfAbsent(open.thread().javaTid(), k -> new HashMap<>());
            // A thread parks again only after its last park ended. Its end is missing when the park was
            // shorter than the recording's threshold (ParkEnd has one, ParkBegin not): the park is then
            // closed here, at the latest time it can have ended, instead of staying open for ever.
            for (ParkWait stale : List.copyOf(ofThread.values())) {
                ofThread.remove(stale.beginSeq());
                ParkWait ended = stale.ended(Math.max(stale.beginNanos(), open.beginNanos()),
                        Math.max(stale.beginSeq(), open.beginSeq() - 1), false);
                visitors.forEach(v -> v.parkEnd(ended));
            }
            ofThread.put(open.beginSeq(), open);
            visitors.forEach(v -> v.parkBegin(open));
        } else if (event instanceof Unpark u) {
            visitors.forEach(v -> v.unpark(u));
        } else if (event instanceof ParkEnd end) {
            Map<Long, ParkWait> ofThread = openParks.get(end.tid());
            ParkWait open = ofThread == null ? null : ofThread.remove(end.beginSeq());
            if (open == null) {
                return; // began before the recording did
            }
            if (ofThread.isEmpty()) {
                openParks.remove(end.tid());
            }
            ParkWait ended = open.ended(end.endNanos(), end.endSeq(), end.timedOut());
            visitors.forEach(v -> v.parkEnd(ended));
        } else {
            throw new IllegalStateException("not a park event: " + event);
        }
    }

    private void deliverTimed(Object event) {
        if (event instanceof MonitorEnter e) {
            visitors.forEach(v -> v.monitorEnter(e));
        } else if (event instanceof MonitorWait w) {
            visitors.forEach(v -> v.monitorWait(w));
        } else if (event instanceof CpuSample s) {
            visitors.forEach(v -> v.cpuSample(s));
        } else if (event instanceof Interval i) {
            visitors.forEach(v -> v.sleep(i));
        } else if (event instanceof JdkPark p) {
            visitors.forEach(v -> v.jdkPark(p));
        } else if (event instanceof ThreadLife t) {
            visitors.forEach(v -> v.threadLife(t));
        } else {
            throw new IllegalStateException("not a timed event: " + event);
        }
    }

}
