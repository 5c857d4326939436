package dev.lockscope.agent.boot;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which virtual thread ran on which carrier when (agent option {@code carriers}, JDK 21+): called from
 * {@code java.lang.VirtualThread.runContinuation()}, instrumented by the agent's VirtualThreadTransformer,
 * just before {@code mount()} and just after {@code unmount()}; at both points the current thread is the
 * carrier, a platform thread. One mount interval is [beforeMount, afterUnmount) of one runContinuation.
 *
 * <p>Design of the hot path (every mount of every virtual thread while on):
 * <ul>
 * <li>Each carrier owns one {@link Ring} (a ThreadLocal of the carrier: carriers keep their thread
 *     locals) and is its only writer: two {@code System.nanoTime()} reads, three plain array stores and
 *     one ordered store of its write counter per interval. No lock, no CAS, no allocation; the only
 *     shared write is the ring's registration, once per carrier.</li>
 * <li>lockscope's thread "lockscope-virtual-thread-events" ({@link EventCommitter}) is each ring's only reader: every 10 ms it commits
 *     the intervals written since its last visit as {@link CarrierMountEvent}s (JFR loses events committed
 *     around mount and unmount, see VirtualThreadHooks) and then advances the ring's read counter.</li>
 * <li>Memory is bounded: {@link #CAPACITY} intervals per live carrier (a carrier's ring is dropped once it
 *     has ended and been drained), for at most {@link #MAX_RINGS} carriers. When the reader falls behind, further intervals are dropped and counted
 *     in the next event ({@code lostIntervals}); nothing waits.</li>
 * </ul>
 * Every hook catches everything (counted in {@link HookFailures}).
 */
public final class CarrierMounts {
    /** Intervals a carrier's ring holds (a power of two): 48 KiB, 10 ms of 400,000 mounts a second. */
    static final int CAPACITY = 4096;
    private static volatile boolean active;
    private static final ThreadLocal<Ring> RING = new ThreadLocal<>();
    /** Every carrier's ring, for the reader; a ring is added once, when its carrier first mounts a thread. */
    private static final ConcurrentLinkedQueue<Ring> RINGS = new ConcurrentLinkedQueue<>();
    /** Rings registered at most (about 100 MB): carriers beyond it are not recorded; the JDK's scheduler has at most 256. */
    static final int MAX_RINGS = 1024;
    private static final AtomicInteger RING_COUNT = new AtomicInteger();

    /** One carrier's intervals: a single-writer (the carrier), single-reader (the committer) ring. */
    static final class Ring {
        /** The carrier: once it has ended and its ring is drained, the ring is dropped (pools retire idle carriers). */
        final Thread carrier;
        final long carrierId;
        /** [mount, unmount, virtual thread id] per interval, at 3 * (index mod CAPACITY). */
        final long[] slots = new long[3 * CAPACITY];
        /**
         * Intervals written: the carrier's lazySet (release) after the slots orders their stores before
         * it, and the reader's get (acquire) sees the slots of every interval it counts.
         */
        final AtomicLong written = new AtomicLong();
        /** Intervals read: the reader's lazySet after it read the slots, before the carrier reuses them. */
        final AtomicLong read = new AtomicLong();
        /** The carrier's copy of {@link #read}, refreshed only when the ring looks full (fewer volatile reads). */
        long readLimit;
        /** The mount of the virtual thread on this carrier now; 0 when none (carrier only). */
        long openMount;
        long openThread;
        /** Intervals dropped (carrier writes, reader reads; a count, not an order). */
        volatile long lost;
        /** {@link #lost} as of the reader's latest event (reader only). */
        long lostReported;

        @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+
        Ring(Thread carrier) {
            this.carrier = carrier;
            this.carrierId = carrier.getId();
        }

        void add(long mount, long unmount, long thread) {
            long w = written.get(); // the carrier's own counter: no other writer
            if (w - readLimit >= CAPACITY) {
                readLimit = read.get();
                if (w - readLimit >= CAPACITY) {
                    lost = lost + 1; // single writer
                    return;
                }
            }
            int at = 3 * (int) (w & (CAPACITY - 1));
            slots[at] = mount;
            slots[at + 1] = unmount;
            slots[at + 2] = thread;
            written.lazySet(w + 1);
        }
    }

    private CarrierMounts() {
    }

    /** Registers the event and the committing task; then the hooks record. */
    public static void activate() {
        jdk.jfr.FlightRecorder.register(CarrierMountEvent.class);
        new CarrierMountEvent().isEnabled(); // loads and links the event class here, not in a hook
        EventCommitter.every10ms("carrier mounts", CarrierMounts::commitNow);
        active = true;
    }

    /** Stops recording and commits what the rings hold (call before the recording stops). */
    public static void deactivate() {
        active = false;
        commitNow();
    }

    /** {@code runContinuation}, before {@code mount()}: the current thread is the carrier. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+, and this class is Java 17 bytecode
    public static void beforeMount(Thread virtualThread) {
        if (!active) {
            return;
        }
        try {
            Ring ring = RING.get();
            if (ring == null) {
                if (RING_COUNT.incrementAndGet() > MAX_RINGS) { // once per carrier, not per mount
                    RING_COUNT.decrementAndGet();
                    return;
                }
                ring = new Ring(Thread.currentThread());
                RING.set(ring);
                RINGS.add(ring);
            }
            ring.openThread = virtualThread.getId();
            ring.openMount = System.nanoTime();
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    /** {@code runContinuation}, after {@code unmount()}: the current thread is the carrier again. */
    @SuppressWarnings("deprecation")
    public static void afterUnmount(Thread virtualThread) {
        if (!active) {
            return;
        }
        try {
            long now = System.nanoTime();
            Ring ring = RING.get();
            if (ring == null || ring.openMount == 0 || ring.openThread != virtualThread.getId()) {
                return; // mounted before recording began
            }
            ring.add(ring.openMount, now, ring.openThread);
            ring.openMount = 0;
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    /** The rings' new intervals as events; synchronized: the committer and deactivate may both call it. */
    private static synchronized void commitNow() {
        try {
            for (java.util.Iterator<Ring> rings = RINGS.iterator(); rings.hasNext(); ) {
                Ring ring = rings.next();
                boolean ended = !ring.carrier.isAlive(); // before draining: what it wrote before it ended is drained now
                long r = ring.read.get();
                long w = ring.written.get();
                for (; r < w; r++) {
                    int at = 3 * (int) (r & (CAPACITY - 1));
                    CarrierMountEvent event = new CarrierMountEvent();
                    event.begin();
                    event.nanoTime = System.nanoTime();
                    event.carrierThreadId = ring.carrierId;
                    event.mountNanos = ring.slots[at];
                    event.unmountNanos = ring.slots[at + 1];
                    event.virtualThreadId = ring.slots[at + 2];
                    long lost = ring.lost;
                    event.lostIntervals = lost - ring.lostReported;
                    ring.lostReported = lost;
                    event.commit();
                }
                ring.read.lazySet(w);
                if (ended) {
                    rings.remove();
                    RING_COUNT.decrementAndGet();
                }
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }
}
