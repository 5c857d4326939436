package dev.lockscope.core;

import java.util.Arrays;

/**
 * A priority queue of entries ordered by a time, then by a tie-breaker, each with an optional
 * payload: the reorder windows of a recording's replay, which take every event of a big recording
 * through them. Entries leave in exactly the order of a min-heap over (time, tie); callers make
 * ties unique (an arrival number), so the order is fully determined.
 *
 * <p>Built for streams that are mostly in order already (JFR commits most events at their end, in
 * time order; only the begins of waits arrive late): an entry not earlier than the last one of the
 * in-order run is appended to that run (a ring buffer, O(1)); only the others go into a 4-ary
 * heap. Polling takes the earlier of the run's head and the heap's top. Everything lives in
 * primitive arrays, so adding an entry allocates nothing (a {@code PriorityQueue} of records with a
 * comparator chain allocated a record per entry and spent most of the replay in comparator lambdas
 * and in sifting through a heap of 16,384 entries that were mostly in order). The arrays are made on
 * first use and payload arrays only for a payload; the run's and the heap's shrink to half once a quarter
 * full, and the run's are given back when it empties: a recording's hundreds of thousands of lock objects each hold one queue
 * of points (no payload, rarely out of order) that grows while the object is busy, then holds a point or two
 * until the end (four fixed arrays cost about 700 bytes per object).
 *
 * @param <T> the payload
 */
public final class TimeOrderQueue<T> {
    /** The in-order run: a ring buffer, {@code runSize} entries from {@code runHead}. */
    private static final long[] NO_KEYS = new long[0];


    private long[] runTimes = NO_KEYS;
    private long[] runTies = NO_KEYS;
    /** Null until an entry with a payload is added. */
    private Object[] runPayloads;
    private int runHead;
    private int runSize;

    /**
     * The entries that arrived out of order: a 4-ary min-heap, entry i's time and tie side by side at
     * {@code heapKeys[2i]} and {@code [2i+1]}. The four children of an entry then lie in one or two cache
     * lines and the heap is half as deep as a binary one: sifting through a window of 16,384 late park
     * begins showed as up to a fifth of the reading thread's time in profiles of a pipeline's recording.
     */
    private long[] heapKeys = NO_KEYS;
    /** Null until an entry with a payload goes into the heap. */
    private Object[] heapPayloads;
    private int heapSize;

    private long polledTime;
    private long polledTie;

    public int size() {
        return runSize + heapSize;
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    public void add(long time, long tie, T payload) {
        if (runSize == 0) {
            runHead = 0;
            appendToRun(time, tie, payload);
            return;
        }
        int tail = (runHead + runSize - 1) & (runTimes.length - 1);
        if (!before(time, tie, runTimes[tail], runTies[tail])) {
            appendToRun(time, tie, payload);
        } else {
            addToHeap(time, tie, payload);
        }
    }

    /**
     * Removes the earliest entry; its time and tie are then {@link #polledTime()} and {@link #polledTie()}.
     *
     * @return its payload
     * @throws IllegalStateException when empty
     */
    @SuppressWarnings("unchecked")
    public T poll() {
        if (runSize > 0 && (heapSize == 0 || before(runTimes[runHead], runTies[runHead], heapKeys[0], heapKeys[1]))) {
            polledTime = runTimes[runHead];
            polledTie = runTies[runHead];
            Object payload = null;
            if (runPayloads != null) {
                payload = runPayloads[runHead];
                runPayloads[runHead] = null;
            }
            runHead = (runHead + 1) & (runTimes.length - 1);
            if (--runSize == 0) {
                release();
            } else if (runSize < runTimes.length / 4 && runTimes.length > 16) {
                resizeRun(runTimes.length / 2);
            }
            return (T) payload;
        }
        if (heapSize == 0) {
            throw new IllegalStateException("empty");
        }
        T payload = (T) pollHeap();
        int capacity = heapKeys.length / 2;
        if (heapSize < capacity / 4 && capacity > 16) { // a heap's first entries are a heap: truncated in place
            heapKeys = Arrays.copyOf(heapKeys, capacity);
            if (heapPayloads != null) {
                heapPayloads = Arrays.copyOf(heapPayloads, capacity / 2);
            }
        }
        return payload;
    }

    /**
     * The time of the earliest entry, which {@link #poll()} would remove next.
     *
     * @throws IllegalStateException when empty
     */
    public long peekTime() {
        if (runSize > 0 && (heapSize == 0 || before(runTimes[runHead], runTies[runHead], heapKeys[0], heapKeys[1]))) {
            return runTimes[runHead];
        }
        if (heapSize == 0) {
            throw new IllegalStateException("empty");
        }
        return heapKeys[0];
    }

    /** An independent copy (polling it leaves this one as it is): to look at every entry in order. */
    public TimeOrderQueue<T> copy() {
        TimeOrderQueue<T> c = new TimeOrderQueue<>();
        c.runTimes = runTimes.clone();
        c.runTies = runTies.clone();
        c.runPayloads = runPayloads == null ? null : runPayloads.clone();
        c.runHead = runHead;
        c.runSize = runSize;
        c.heapKeys = heapKeys.clone();
        c.heapPayloads = heapPayloads == null ? null : heapPayloads.clone();
        c.heapSize = heapSize;
        return c;
    }

    private void release() {
        runTimes = NO_KEYS;
        runTies = NO_KEYS;
        runPayloads = null;
        runHead = 0;
    }

    /** The time of the entry the last {@link #poll()} removed. */
    public long polledTime() {
        return polledTime;
    }

    /** The tie-breaker of the entry the last {@link #poll()} removed. */
    public long polledTie() {
        return polledTie;
    }

    private static boolean before(long time, long tie, long otherTime, long otherTie) {
        return time < otherTime || time == otherTime && tie < otherTie;
    }

    private void appendToRun(long time, long tie, Object payload) {
        if (runSize == runTimes.length) {
            growRun();
        }
        int at = (runHead + runSize) & (runTimes.length - 1);
        runTimes[at] = time;
        runTies[at] = tie;
        if (payload != null && runPayloads == null) {
            runPayloads = new Object[runTimes.length];
        }
        if (runPayloads != null) {
            runPayloads[at] = payload;
        }
        runSize++;
    }

    /** Doubles the ring (its length stays a power of two), unrolled to start at index 0. */
    private void growRun() {
        resizeRun(Math.max(2 * runTimes.length, 8));
    }

    /** The ring at {@code capacity} (a power of two, at least its size), unrolled to start at index 0. */
    private void resizeRun(int capacity) {
        int n = runTimes.length;
        long[] times = new long[capacity];
        long[] ties = new long[capacity];
        Object[] payloads = runPayloads == null ? null : new Object[capacity];
        for (int i = 0; i < runSize; i++) {
            int from = (runHead + i) & (n - 1);
            times[i] = runTimes[from];
            ties[i] = runTies[from];
            if (payloads != null) {
                payloads[i] = runPayloads[from];
            }
        }
        runTimes = times;
        runTies = ties;
        runPayloads = payloads;
        runHead = 0;
    }

    private void addToHeap(long time, long tie, Object payload) {
        if (2 * heapSize == heapKeys.length) {
            int capacity = Math.max(heapSize * 2, 8);
            heapKeys = Arrays.copyOf(heapKeys, 2 * capacity);
            if (heapPayloads != null) {
                heapPayloads = Arrays.copyOf(heapPayloads, capacity);
            }
        }
        if (payload != null && heapPayloads == null) {
            heapPayloads = new Object[heapKeys.length / 2];
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            if (!before(time, tie, heapKeys[2 * parent], heapKeys[2 * parent + 1])) {
                break;
            }
            moveInHeap(parent, i);
            i = parent;
        }
        setInHeap(i, time, tie, payload);
    }

    private Object pollHeap() {
        long[] keys = heapKeys;
        polledTime = keys[0];
        polledTie = keys[1];
        Object[] payloads = heapPayloads;
        Object top = payloads == null ? null : payloads[0];
        int last = --heapSize;
        long time = keys[2 * last];
        long tie = keys[2 * last + 1];
        Object payload = null;
        if (payloads != null) {
            payload = payloads[last];
            payloads[last] = null;
        }
        if (last > 0) {
            int i = 0;
            while (true) {
                int first = 4 * i + 1;
                if (first >= last) {
                    break;
                }
                int child = first;
                int end = Math.min(first + 4, last);
                for (int c = first + 1; c < end; c++) {
                    if (before(keys[2 * c], keys[2 * c + 1], keys[2 * child], keys[2 * child + 1])) {
                        child = c;
                    }
                }
                if (!before(keys[2 * child], keys[2 * child + 1], time, tie)) {
                    break;
                }
                moveInHeap(child, i);
                i = child;
            }
            setInHeap(i, time, tie, payload);
        }
        return top;
    }

    private void moveInHeap(int from, int to) {
        heapKeys[2 * to] = heapKeys[2 * from];
        heapKeys[2 * to + 1] = heapKeys[2 * from + 1];
        if (heapPayloads != null) {
            heapPayloads[to] = heapPayloads[from];
        }
    }

    private void setInHeap(int i, long time, long tie, Object payload) {
        heapKeys[2 * i] = time;
        heapKeys[2 * i + 1] = tie;
        if (heapPayloads != null) {
            heapPayloads[i] = payload;
        }
    }
}
