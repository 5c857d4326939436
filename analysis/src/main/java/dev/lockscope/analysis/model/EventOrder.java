package dev.lockscope.analysis.model;

import dev.lockscope.core.EventNames;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Puts the events of a recording into the order {@link RecordingVisitor} promises, through two small
 * reorder windows.
 *
 * <p>JFR delivers events in commit order, chunk by chunk. A {@code lockscope.Park} is committed when
 * the thread wakes, so its begin arrives late by the park's length; an {@code Unpark} a moment after
 * the unpark. lockscope's events are released in time order (park begins, unparks and park ends,
 * at equal times in that order), JFR's own events in end order. Each window holds at most
 * {@code capacity} events and always releases the earliest, which repairs any disorder shorter than
 * the window; a park that spans more than a window's worth of later events has its begin released
 * late. Memory is bounded by the windows.
 *
 * <p>{@link RecordingReader} feeds it from a file, {@link LockRecording#replay} from lists; a test can
 * feed it a synthetic stream of any length.
 */
public final class EventOrder {
    /** Ranks at an equal time: a park begin, then unparks, then park ends (an unpark at the end time woke it). */
    private static final int BEGIN = 0;
    private static final int UNPARK = 1;
    private static final int END = 2;

    private record Pending(long key, int rank, long arrival, Object event) {
    }

    /** The end of a park, released after the begin of the same {@link ParkWait}. */
    private record ParkEnd(ParkWait ended) {
    }

    private static final Comparator<Pending> ORDER = Comparator.comparingLong(Pending::key)
            .thenComparingInt(Pending::rank).thenComparingLong(Pending::arrival);

    private final int capacity;
    private final List<RecordingVisitor> visitors;
    private final PriorityQueue<Pending> ours = new PriorityQueue<>(ORDER);
    private final PriorityQueue<Pending> byEndTime = new PriorityQueue<>(ORDER);
    private long arrivals;

    /** @param capacity events each window holds before it releases the smallest */
    public EventOrder(int capacity, List<RecordingVisitor> visitors) {
        this.capacity = capacity;
        this.visitors = List.copyOf(visitors);
    }

    /** One park: its begin, and its end unless {@link ParkWait#isOpen()}. */
    public void park(ParkWait park) {
        add(new Pending(park.beginNanos(), BEGIN, arrivals++, park.asOpen()));
        if (!park.isOpen()) {
            add(new Pending(park.endNanos(), END, arrivals++, new ParkEnd(park)));
        }
    }

    public void unpark(Unpark u) {
        add(new Pending(u.timeNanos(), UNPARK, arrivals++, u));
    }

    private final VirtualThreads virtualThreads = new VirtualThreads();

    /** A JFR event (monitor enter or wait, CPU sample, sleep, pinning, lock summary, jdk.ThreadPark, thread start or end), released in end-time order. */
    public void timed(long endNanos, Object event) {
        byEndTime.add(new Pending(endNanos, 0, arrivals++, event));
        if (byEndTime.size() > capacity) {
            deliverTimed(byEndTime.poll().event());
        }
    }

    /** Passes on the virtual-thread scheduler's parallelism (before {@link #finish}). */
    public void virtualThreadCarriers(int count) {
        visitors.forEach(v -> v.virtualThreadCarriers(count));
    }

    public void cpuSamplingPeriod(long nanos) {
        visitors.forEach(v -> v.cpuSamplingPeriod(nanos));
    }

    /** Releases everything still held, then tells the visitors that the recording is over. */
    public void finish(RecordingInfo info) {
        while (!ours.isEmpty()) {
            deliverOurs(ours.poll());
        }
        while (!byEndTime.isEmpty()) {
            deliverTimed(byEndTime.poll().event());
        }
        visitors.forEach(v -> v.finish(info));
    }

    private void add(Pending p) {
        ours.add(p);
        if (ours.size() > capacity) {
            deliverOurs(ours.poll());
        }
    }

    private void deliverOurs(Pending p) {
        Object event = p.event();
        if (event instanceof ParkWait open) {
            visitors.forEach(v -> v.parkBegin(open));
        } else if (event instanceof Unpark u) {
            visitors.forEach(v -> v.unpark(u));
        } else if (event instanceof ParkEnd end) {
            visitors.forEach(v -> v.parkEnd(end.ended()));
        } else {
            throw new IllegalStateException("not a park event: " + event);
        }
    }

    private void deliverTimed(Object event) {
        if (event instanceof MonitorEnter entered) {
            MonitorEnter e = virtualThreads.withOwner(entered);
            visitors.forEach(v -> v.monitorEnter(e));
        } else if (event instanceof MonitorWait w) {
            visitors.forEach(v -> v.monitorWait(w));
        } else if (event instanceof CpuSample s) {
            visitors.forEach(v -> v.cpuSample(s));
        } else if (event instanceof Interval i && i.eventType().equals(EventNames.THREAD_SLEEP)) {
            visitors.forEach(v -> v.sleep(i));
        } else if (event instanceof Interval i && EventNames.BLOCKING_IO.contains(i.eventType())) {
            visitors.forEach(v -> v.blockingIo(i));
        } else if (event instanceof Interval i) {
            visitors.forEach(v -> v.pinned(i));
        } else if (event instanceof LockSummary s) {
            visitors.forEach(v -> v.lockSummary(s));
        } else if (event instanceof DeepLock l) {
            visitors.forEach(v -> v.deepLock(l));
        } else if (event instanceof DeepSite d) {
            visitors.forEach(v -> v.deepSite(d));
        } else if (event instanceof DeepInfo d) {
            visitors.forEach(v -> v.deepInfo(d));
        } else if (event instanceof JdkPark p) {
            visitors.forEach(v -> v.jdkPark(p));
        } else if (event instanceof ThreadLife t) {
            visitors.forEach(v -> v.threadLife(t));
        } else {
            throw new IllegalStateException("not a timed event: " + event);
        }
    }
}
