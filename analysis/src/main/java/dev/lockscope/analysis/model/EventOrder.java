package dev.lockscope.analysis.model;

import dev.lockscope.core.EventNames;
import dev.lockscope.core.TimeOrderQueue;
import java.util.List;

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

    /** Where an event's rank sits in its tie-breaker, above its arrival number: time, then rank, then arrival. */
    private static final int RANK_SHIFT = 56;

    private final int capacity;
    private final RecordingVisitor[] visitors;
    /** lockscope's events by time, rank and arrival; a park end's payload is the ended {@link ParkWait}. */
    private final TimeOrderQueue<Object> ours = new TimeOrderQueue<>();
    private final TimeOrderQueue<Object> byEndTime = new TimeOrderQueue<>();
    private long arrivals;

    /** @param capacity events each window holds before it releases the smallest */
    public EventOrder(int capacity, List<RecordingVisitor> visitors) {
        this.capacity = capacity;
        this.visitors = visitors.toArray(RecordingVisitor[]::new);
    }

    /** One park: its begin, and its end unless {@link ParkWait#isOpen()}. */
    public void park(ParkWait park) {
        add(park.beginNanos(), BEGIN, park.asOpen());
        if (!park.isOpen()) {
            add(park.endNanos(), END, park);
        }
    }

    public void unpark(Unpark u) {
        add(u.timeNanos(), UNPARK, u);
    }

    private final VirtualThreads virtualThreads = new VirtualThreads();

    /** A JFR event (monitor enter or wait, CPU sample, sleep, pinning, lock summary, jdk.ThreadPark, thread start or end), released in end-time order. */
    public void timed(long endNanos, Object event) {
        byEndTime.add(endNanos, arrivals++, event);
        if (byEndTime.size() > capacity) {
            deliverTimed(byEndTime.poll());
        }
    }

    /** Passes on the virtual-thread scheduler's parallelism (before {@link #finish}). */
    public void virtualThreadCarriers(int count) {
        for (RecordingVisitor v : visitors) {
            v.virtualThreadCarriers(count);
        }
    }

    public void cpuSamplingPeriod(long nanos) {
        for (RecordingVisitor v : visitors) {
            v.cpuSamplingPeriod(nanos);
        }
    }

    /** Releases everything still held, then tells the visitors that the recording is over. */
    public void finish(RecordingInfo info) {
        while (!ours.isEmpty()) {
            deliverOurs();
        }
        while (!byEndTime.isEmpty()) {
            deliverTimed(byEndTime.poll());
        }
        for (RecordingVisitor v : visitors) {
            v.finish(info);
        }
    }

    private void add(long time, int rank, Object event) {
        ours.add(time, (long) rank << RANK_SHIFT | arrivals++, event);
        if (ours.size() > capacity) {
            deliverOurs();
        }
    }

    /** Releases the earliest of lockscope's events held. */
    private void deliverOurs() {
        Object event = ours.poll();
        int rank = (int) (ours.polledTie() >>> RANK_SHIFT);
        if (rank == UNPARK) {
            Unpark u = (Unpark) event;
            for (RecordingVisitor v : visitors) {
                v.unpark(u);
            }
        } else if (rank == BEGIN) {
            ParkWait open = (ParkWait) event;
            for (RecordingVisitor v : visitors) {
                v.parkBegin(open);
            }
        } else {
            ParkWait ended = (ParkWait) event;
            for (RecordingVisitor v : visitors) {
                v.parkEnd(ended);
            }
        }
    }

    private void deliverTimed(Object event) {
        if (event instanceof MonitorEnter entered) {
            MonitorEnter e = virtualThreads.withOwner(entered);
            for (RecordingVisitor v : visitors) {
                v.monitorEnter(e);
            }
        } else if (event instanceof MonitorWait w) {
            for (RecordingVisitor v : visitors) {
                v.monitorWait(w);
            }
        } else if (event instanceof CpuSample s) {
            for (RecordingVisitor v : visitors) {
                v.cpuSample(s);
            }
        } else if (event instanceof Interval i && i.eventType().equals(EventNames.THREAD_SLEEP)) {
            for (RecordingVisitor v : visitors) {
                v.sleep(i);
            }
        } else if (event instanceof Interval i && EventNames.BLOCKING_IO.contains(i.eventType())) {
            for (RecordingVisitor v : visitors) {
                v.blockingIo(i);
            }
        } else if (event instanceof Interval i) {
            for (RecordingVisitor v : visitors) {
                v.pinned(i);
            }
        } else if (event instanceof LockSummary s) {
            for (RecordingVisitor v : visitors) {
                v.lockSummary(s);
            }
        } else if (event instanceof StackBudget b) {
            for (RecordingVisitor v : visitors) {
                v.stackBudget(b);
            }
        } else if (event instanceof DeepLock l) {
            for (RecordingVisitor v : visitors) {
                v.deepLock(l);
            }
        } else if (event instanceof DeepSite d) {
            for (RecordingVisitor v : visitors) {
                v.deepSite(d);
            }
        } else if (event instanceof DeepInfo d) {
            for (RecordingVisitor v : visitors) {
                v.deepInfo(d);
            }
        } else if (event instanceof DeepRelease r) {
            for (RecordingVisitor v : visitors) {
                v.deepRelease(r);
            }
        } else if (event instanceof JdkPark p) {
            for (RecordingVisitor v : visitors) {
                v.jdkPark(p);
            }
        } else if (event instanceof ThreadCpu t) {
            for (RecordingVisitor v : visitors) {
                v.threadCpu(t);
            }
        } else if (event instanceof MachineCpu m) {
            for (RecordingVisitor v : visitors) {
                v.machineCpu(m);
            }
        } else if (event instanceof ThreadLife t) {
            for (RecordingVisitor v : visitors) {
                v.threadLife(t);
            }
        } else if (event instanceof CarrierMount m) {
            for (RecordingVisitor v : visitors) {
                v.carrierMount(m);
            }
        } else {
            throw new IllegalStateException("not a timed event: " + event);
        }
    }
}
