package dev.lockscope.analysis.profile;

import dev.lockscope.core.Frame;

import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.JdkPark;
import dev.lockscope.analysis.model.LockSummary;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.ThreadLife;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.VirtualThreads;
import dev.lockscope.core.EventNames;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU and wall-clock profiles of a recording, from the same pass as every other analysis.
 *
 * <p>CPU: each {@code jdk.ExecutionSample} counts once under its call chain (Hofer, <i>Method Profiling
 * and Lock Contention Profiling on the JVM Level</i>, §3.1).
 *
 * <p>Wall clock, by the rule of stack fragment sampling (ibid. §3.2.5, a sample's weight is the time
 * to the thread's next sample): a running sample stands for the time to the same thread's next sample
 * or recorded wait, at most one sampling period ({@link WallClockWeights}); the time off CPU is not
 * sampled but recorded, so each monitor enter, {@code Object.wait}, park, sleep and blocking I/O event
 * stands for its own duration under its own call chain, with a leaf that names what it waited for
 * (the lock's class: with the call path it names the lock's site, and two runs of a program, whose
 * lock addresses differ, keep the same paths for {@code lockscope diff}; the blame section names the
 * instances). An idle park, which the agent records without a stack (a worker waiting for work), stands
 * under its blocker's first stack with a leaf that says so. Running and waiting share one scale, nanoseconds.
 *
 * <p>Memory: trees grow with distinct call chains; running samples wait per thread until the thread's
 * next samples and waits are known, at most {@link #HELD_SAMPLES} per thread (older ones are weighed
 * with what is known then: a wait that is recorded later can only shorten their weight, by less than
 * a period).
 */
public final class ProfileAnalysis implements RecordingVisitor {
    /** JFR's default.jfc period, and the agent's default {@code cpuSamples}. */
    public static final long DEFAULT_PERIOD_NANOS = 20_000_000L;
    static final int HELD_SAMPLES = 8192;
    /**
     * The longest a running sample stands for when nothing bounds it earlier, in sampling periods: JFR's
     * sampler is late on a loaded machine (gaps of up to 7 periods between the samples of a thread that
     * only computes, on 2 busy cores, JDK 17 and 25), and a thread blocked in native code is neither
     * sampled nor recorded (its sample would otherwise stand for the whole block; while other threads
     * run, the sampler's ticks end it earlier).
     */
    static final int MAX_GAP_PERIODS = 10;
    /** Samples of one tick of JFR's sampler lie within this of each other. */
    static final long SAME_TICK_NANOS = 1_000_000;
    private static final int KEPT_AFTER_COMPACTION = 512;

    private final Map<String, CallTree<String>> cpu = new HashMap<>();
    private final Map<String, CallTree<String>> wall = new HashMap<>();
    /** jdk.ThreadPark waits, used only when the recording has no lockscope park (they would count twice). */
    private final Map<String, CallTree<String>> jdkParks = new HashMap<>();
    private final Map<ThreadRef, ThreadSamples> running = new HashMap<>();
    private final Map<ThreadRef, Long> threadEnds = new HashMap<>();
    /** Parks begun and not yet ended, by thread and hand-off number: at the end they last to the recording's end. */
    private final Map<List<Object>, ParkWait> openParks = new HashMap<>();
    private final Map<List<String>, List<String>> paths = new HashMap<>();
    /**
     * The reader hands out one list per distinct stack, so the path of a stack and leaf is looked up by
     * the list's identity first: no list is built or hashed again for a stack already seen.
     */
    private final Map<List<String>, Map<String, List<String>>> pathsByStack = new IdentityHashMap<>();
    /**
     * The wall tree's node of each wait place (group and leaf) under each distinct stack, by the
     * stack's identity: a wait adds its time there without building, hashing or walking its path.
     */
    private final Map<List<String>, Map<WaitPlace, CallTree.Node<String>>> waitNodes = new IdentityHashMap<>();
    private final Map<ThreadRef, String> poolByThread = new HashMap<>();
    private final Map<List<String>, String> virtualPoolByStack = new IdentityHashMap<>();
    private final Map<String, String> parkLeaves = new HashMap<>();
    private final Map<IdlePark, Long> idleParks = new HashMap<>();
    private final Map<Blocker, List<String>> firstStacks = new HashMap<>();
    /** When JFR's sampler looked: the time of every execution sample, of any thread. */
    private final SampleTicks ticks = new SampleTicks();
    private long period;
    private boolean lockscopeParks;
    private long runningNanos;
    private Profiles result;

    @Override
    public void cpuSamplingPeriod(long nanos) {
        period = nanos;
    }

    @Override
    public void cpuSample(CpuSample s) {
        String group = VirtualThreads.poolOf(s.thread(), s.frames());
        List<String> path = rootFirst(s.frames(), null);
        tree(cpu, group).add(path, 1);
        ThreadSamples t = running.computeIfAbsent(s.thread(), k -> new ThreadSamples());
        t.samples.add(new Sample(s.timeNanos(), path, group));
        ticks.add(s.timeNanos());
        if (t.samples.size() > HELD_SAMPLES) {
            weigh(t, KEPT_AFTER_COMPACTION, Long.MAX_VALUE);
            ticks.dropBefore(oldestHeldSample() - MAX_GAP_PERIODS * samplingPeriod());
        }
    }

    @Override
    public void monitorEnter(MonitorEnter e) {
        waited(e.thread(), e.beginNanos(), e.endNanos(), e.frames(),
                "[blocked on " + e.monitorClass() + "]");
    }

    @Override
    public void monitorWait(MonitorWait w) {
        waited(w.thread(), w.beginNanos(), w.endNanos(), w.frames(),
                "[Object.wait on " + w.monitorClass() + "]");
    }

    @Override
    public void parkBegin(ParkWait open) {
        lockscopeParks = true;
        openParks.put(List.of(open.thread(), open.beginSeq()), open);
    }

    @Override
    public void parkEnd(ParkWait ended) {
        openParks.remove(List.of(ended.thread(), ended.beginSeq()));
        park(ended, ended.endNanos());
    }

    private void park(ParkWait p, long end) {
        if (p.idle() && end > p.beginNanos()) {
            // a worker waiting for work, recorded without a stack: it goes under its blocker's first stack at
            // the end, when the blocker's summary has given that stack; a sampled one (shorter than 10 ms)
            // counts its weight times, as a sampled park does below
            idleParks.merge(new IdlePark(pool(p.thread(), p.frames()), p.blockerClass(), p.blockerHash()),
                    Math.round((end - p.beginNanos()) * p.weight()), Long::sum);
            recordWait(p.thread(), p.beginNanos(), end);
            return;
        }
        waited(p.thread(), p.beginNanos(), end, p.frames(),
                parkLeaves.computeIfAbsent(p.blockerClass(), c -> "[parked on " + c + "]"), p.weight());
    }

    @Override
    public void lockSummary(LockSummary s) {
        if (!s.isCollected() && !s.firstFrames().isEmpty()) {
            firstStacks.put(new Blocker(s.blockerClass(), s.blockerHash()), s.firstFrames());
        }
    }

    /** One blocker, as a park and a summary name it. */
    private record Blocker(String blockerClass, int blockerHash) {
    }

    /** The stackless parks of one blocker by the threads of one group. */
    private record IdlePark(String group, String blockerClass, int blockerHash) {
    }

    /**
     * The stackless parks' time under their blocker's first stack (the worker loop they all wait in), with a
     * leaf that says the stack is the first park's; at the root when the recording has no summary of it.
     */
    private void addIdleParks() {
        idleParks.forEach((park, nanos) -> {
            List<String> frames = firstStacks.getOrDefault(new Blocker(park.blockerClass(), park.blockerHash()), List.of());
            tree(wall, park.group()).add(rootFirst(frames, "[parked on " + park.blockerClass() + ", idle: first park's stack]"),
                    nanos);
        });
        idleParks.clear();
    }

    @Override
    public void jdkPark(JdkPark p) {
        String leaf = "[parked on " + (p.parkedClass() == null ? "no blocker" : p.parkedClass()) + "]";
        tree(jdkParks, VirtualThreads.poolOf(p.thread(), p.frames())).add(rootFirst(p.frames(), leaf), p.endNanos() - p.beginNanos());
        recordWait(p.thread(), p.beginNanos(), p.endNanos());
    }

    @Override
    public void sleep(Interval i) {
        waited(i.thread(), i.beginNanos(), i.endNanos(), i.frames(), "[sleeping]");
    }

    @Override
    public void blockingIo(Interval i) {
        waited(i.thread(), i.beginNanos(), i.endNanos(), i.frames(), waitLeaf(i.eventType()));
    }

    /** The leaf of an I/O wait in the wall tree. */
    static String waitLeaf(String ioEvent) {
        return switch (ioEvent) {
            case EventNames.SOCKET_READ -> "[socket read]";
            case EventNames.SOCKET_WRITE -> "[socket write]";
            case EventNames.FILE_READ -> "[file read]";
            case EventNames.FILE_WRITE -> "[file write]";
            default -> "[" + ioEvent + "]";
        };
    }

    @Override
    public void threadLife(ThreadLife t) {
        if (t.ended()) {
            threadEnds.put(t.thread(), t.timeNanos());
        }
    }

    private void waited(ThreadRef thread, long begin, long end, List<String> frames, String leaf) {
        waited(thread, begin, end, frames, leaf, 1);
    }

    /**
     * A recorded wait's time under its stack; a sampled park's ({@code weight} above 1: ParkWait#weight) counts
     * that many times its length, so the profile's off-CPU time estimates all parks'. The wait still ends the
     * thread's running samples only where it really was.
     */
    private void waited(ThreadRef thread, long begin, long end, List<String> frames, String leaf, double weight) {
        if (end <= begin) {
            return;
        }
        String group = pool(thread, frames);
        Map<WaitPlace, CallTree.Node<String>> byPlace = waitNodes.computeIfAbsent(frames, k -> new HashMap<>());
        WaitPlace place = new WaitPlace(group, leaf);
        CallTree<String> tree = tree(wall, group);
        CallTree.Node<String> node = byPlace.get(place);
        if (node == null) {
            node = tree.node(rootFirst(frames, leaf));
            byPlace.put(place, node);
        }
        tree.add(node, weight == 1 ? end - begin : Math.round((end - begin) * weight));
        recordWait(thread, begin, end);
    }

    /** {@link VirtualThreads#poolOf}, once per thread (per stack for unnamed virtual threads, grouped by their task). */
    private String pool(ThreadRef thread, List<String> frames) {
        if (thread != null && thread.name().startsWith("virtual#")) {
            return virtualPoolByStack.computeIfAbsent(frames, f -> VirtualThreads.poolOf(thread, f));
        }
        return thread == null ? VirtualThreads.poolOf(null, frames)
                : poolByThread.computeIfAbsent(thread, t -> VirtualThreads.poolOf(t, frames));
    }

    private void recordWait(ThreadRef thread, long begin, long end) {
        ThreadSamples t = running.computeIfAbsent(thread, k -> new ThreadSamples());
        t.addWait(begin, end);
        if (t.waitCount() > t.dropWaitsAt) {
            // a thread that waits and is not sampled: only a late sample near these waits could use them;
            // one with held samples: weighing them needs the wait before the oldest and every later one
            // (a thread's samples arrive in time order), so the samples before this wait began are weighed
            // now (the thread's later waits begin after this one: what decides their weights is here) and
            // the waits before them dropped (a Derby worker waits thousands of times a second and is sampled
            // a few times: holding samples until HELD_SAMPLES held all of a 120-second recording's waits)
            int later = 0;
            for (Sample held : t.samples) {
                later += held.time() >= begin ? 1 : 0;
            }
            if (later < t.samples.size()) {
                weigh(t, later, Long.MAX_VALUE); // the newest of them too: this wait bounds its weight
                ticks.dropBefore(oldestHeldSample() - MAX_GAP_PERIODS * samplingPeriod());
            } else {
                t.dropWaitsBefore(t.samples.isEmpty() ? begin : t.oldestSample());
            }
            t.dropWaitsAt = Math.max(HELD_SAMPLES, 2 * t.waitCount()); // what a sample still holds is not dropped again and again
        }
    }

    @Override
    public void finish(RecordingInfo info) {
        boolean fromRecording = period > 0;
        if (!fromRecording) {
            period = DEFAULT_PERIOD_NANOS;
        }
        for (ParkWait open : openParks.values()) {
            park(open, info.endNanos());
        }
        openParks.clear();
        addIdleParks();
        running.forEach((thread, t) -> weigh(t, 0, threadEnds.getOrDefault(thread, info.endNanos())));
        running.clear();
        if (!lockscopeParks) {
            jdkParks.forEach((group, tree) -> tree.edgeWeights().forEach((path, w) -> tree(wall, group).add(path, w)));
        }
        result = new Profiles(period, fromRecording, cpu, wall, runningNanos);
    }

    /** The profiles, once the recording has been read. */
    public Profiles result() {
        if (result == null) {
            throw new IllegalStateException("the recording has not been read yet");
        }
        return result;
    }

    private long samplingPeriod() {
        return period > 0 ? period : DEFAULT_PERIOD_NANOS;
    }

    private long oldestHeldSample() {
        long oldest = Long.MAX_VALUE;
        for (ThreadSamples t : running.values()) {
            for (Sample s : t.samples) {
                oldest = Math.min(oldest, s.time());
            }
        }
        return oldest;
    }

    /**
     * Adds the held running samples of a thread to the wall trees, all but the newest {@code keep}
     * (they wait for their successor); the last one lasts at most to {@code end}. A sample stands for
     * the time to the first of: the thread's next sample, its next recorded wait, a tick of the sampler
     * that did not find it running (another thread's sample with none of this thread's), and
     * {@link #MAX_GAP_PERIODS} periods; the first sample after a wait also for the time since the wait
     * ended or since the sampler last looked and did not find it, at most that long.
     */
    private void weigh(ThreadSamples t, int keep, long end) {
        List<Sample> samples = t.samples;
        samples.sort(Comparator.comparingLong(Sample::time));
        t.sortWaits();
        int n = samples.size() - keep;
        long maxGap = MAX_GAP_PERIODS * samplingPeriod();
        for (int i = 0; i < n; i++) {
            Sample s = samples.get(i);
            long nextSample = i + 1 < samples.size() ? samples.get(i + 1).time() : Long.MAX_VALUE;
            long next = Math.min(nextSample, ticks.firstAfter(s.time() + SAME_TICK_NANOS,
                    nextSample == Long.MAX_VALUE ? Long.MAX_VALUE : nextSample - SAME_TICK_NANOS));
            int firstAfter = t.firstWaitBeginningAtOrAfter(s.time());
            if (firstAfter < t.waitCount) {
                next = Math.min(next, t.waitBegins[firstAfter]);
            }
            long previous = i > 0 ? samples.get(i - 1).time() : t.lastWeighed;
            long lastWaitEnd = firstAfter > 0 ? t.waitEnds[firstAfter - 1] : Long.MIN_VALUE;
            if (lastWaitEnd != Long.MIN_VALUE && lastWaitEnd >= previous) {
                // the sampler looked after the wait and did not find the thread: it ran from then at the
                // latest (no sample of its own lies between the wait and this one)
                lastWaitEnd = Math.max(lastWaitEnd, ticks.lastBefore(lastWaitEnd, s.time() - SAME_TICK_NANOS));
            }
            long weight = WallClockWeights.runningSample(s.time(), next, end, maxGap)
                    + WallClockWeights.sinceResume(s.time(), previous, lastWaitEnd, maxGap);
            if (weight > 0) {
                tree(wall, s.group()).add(s.path(), weight);
                runningNanos += weight;
            }
        }
        if (n > 0) {
            t.lastWeighed = samples.get(n - 1).time();
        }
        List<Sample> kept = new ArrayList<>(samples.subList(n, samples.size()));
        samples.clear();
        samples.addAll(kept);
        // a held sample needs the waits after the last weighed one (for its resume) and later
        t.dropWaitsBefore(t.lastWeighed);
    }

    private static CallTree<String> tree(Map<String, CallTree<String>> byGroup, String group) {
        return byGroup.computeIfAbsent(group, k -> new CallTree<>());
    }

    /** The chain outermost first, as methods (lines do not split nodes), then {@code leaf} if any; one copy per distinct path. */
    private List<String> rootFirst(List<String> innermostFirst, String leaf) {
        return pathsByStack.computeIfAbsent(innermostFirst, k -> new HashMap<>())
                .computeIfAbsent(leaf == null ? "" : leaf, k -> newPath(innermostFirst, leaf));
    }

    private List<String> newPath(List<String> innermostFirst, String leaf) {
        List<String> path = new ArrayList<>(innermostFirst.size() + 1);
        for (int i = innermostFirst.size() - 1; i >= 0; i--) {
            path.add(method(innermostFirst.get(i)));
        }
        if (leaf != null) {
            path.add(leaf);
        }
        return paths.computeIfAbsent(path, List::copyOf);
    }

    /**
     * {@code package.Class.method:line} → {@code package.Class.method}, a lambda's generated class
     * without its number and address ({@code Main$$Lambda$128+0x00007f40840c5b98.1201484275.run} and
     * JDK 21's {@code Main$$Lambda.0x00007f40840c5b98.run} → {@code Main$$Lambda.run}), so that two
     * runs of one program have the same call paths (Hofer §3.4 normalises generated names likewise).
     */
    public static String method(String frame) {
        Frame f = Frame.parse(frame);
        int lambda = f.className().indexOf("$$Lambda");
        return lambda < 0 ? f.function() : f.className().substring(0, lambda + "$$Lambda".length()) + "." + f.method();
    }

    private record Sample(long time, List<String> path, String group) {
    }

    private record WaitPlace(String group, String leaf) {
    }

    /** The times of all execution samples, sorted when read. */
    private static final class SampleTicks {
        private long[] times = new long[64];
        private int count;
        private boolean sorted = true;

        void add(long time) {
            if (count == times.length) {
                times = Arrays.copyOf(times, count * 2);
            }
            sorted &= count == 0 || times[count - 1] <= time;
            times[count++] = time;
        }

        private void sort() {
            if (!sorted) {
                Arrays.sort(times, 0, count);
                sorted = true;
            }
        }

        /** The first tick in (from, to), or {@link Long#MAX_VALUE}. */
        long firstAfter(long from, long to) {
            sort();
            int i = indexAfter(from);
            return i < count && times[i] < to ? times[i] : Long.MAX_VALUE;
        }

        /** The last tick in (from, to), or {@link Long#MIN_VALUE}. */
        long lastBefore(long from, long to) {
            sort();
            int i = indexAfter(to - 1) - 1; // the last index with times[i] < to
            return i >= 0 && times[i] > from ? times[i] : Long.MIN_VALUE;
        }

        /** The first index whose time is greater than {@code t}. */
        private int indexAfter(long t) {
            int lo = 0;
            int hi = count;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (times[mid] <= t) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        void dropBefore(long t) {
            sort();
            int from = indexAfter(t - 1);
            System.arraycopy(times, from, times, 0, count - from);
            count -= from;
        }
    }

    /** A thread's running samples not yet weighed, and its recorded waits (begin and end). */
    private static final class ThreadSamples {
        final List<Sample> samples = new ArrayList<>();
        long[] waitBegins = new long[4];
        long[] waitEnds = new long[4];
        int waitCount;
        int dropWaitsAt = HELD_SAMPLES;
        /** The time of the latest sample already weighed ({@link Long#MIN_VALUE} before the first). */
        long lastWeighed = Long.MIN_VALUE;

        void addWait(long begin, long end) {
            if (waitCount == waitBegins.length) {
                waitBegins = Arrays.copyOf(waitBegins, waitCount * 2);
                waitEnds = Arrays.copyOf(waitEnds, waitCount * 2);
            }
            waitBegins[waitCount] = begin;
            waitEnds[waitCount++] = end;
        }

        int waitCount() {
            return waitCount;
        }

        long oldestSample() {
            long oldest = Long.MAX_VALUE;
            for (Sample s : samples) {
                oldest = Math.min(oldest, s.time());
            }
            return oldest;
        }

        /** Sorts the waits by begin (a thread's waits do not overlap, so their ends follow the same order). */
        void sortWaits() {
            int sortedUpTo = 1;
            while (sortedUpTo < waitCount && waitBegins[sortedUpTo - 1] <= waitBegins[sortedUpTo]) {
                sortedUpTo++;
            }
            if (sortedUpTo >= waitCount) {
                return; // as they mostly come: a thread's waits are delivered in end order
            }
            Integer[] order = new Integer[waitCount];
            for (int i = 0; i < waitCount; i++) {
                order[i] = i;
            }
            Arrays.sort(order, Comparator.comparingLong(i -> waitBegins[i]));
            long[] b = new long[Math.max(4, waitCount)];
            long[] e = new long[b.length];
            for (int i = 0; i < waitCount; i++) {
                b[i] = waitBegins[order[i]];
                e[i] = waitEnds[order[i]];
            }
            waitBegins = b;
            waitEnds = e;
        }

        /** After {@link #sortWaits}: the index of the first wait that begins at or after {@code time}. */
        int firstWaitBeginningAtOrAfter(long time) {
            int lo = 0;
            int hi = waitCount;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (waitBegins[mid] < time) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** Keeps the last wait that began before {@code time} and every later one. */
        void dropWaitsBefore(long time) {
            sortWaits();
            int from = Math.max(0, firstWaitBeginningAtOrAfter(time) - 1);
            waitBegins = Arrays.copyOfRange(waitBegins, from, Math.max(from + 4, waitBegins.length));
            waitEnds = Arrays.copyOfRange(waitEnds, from, Math.max(from + 4, waitEnds.length));
            waitCount -= from;
        }
    }
}
