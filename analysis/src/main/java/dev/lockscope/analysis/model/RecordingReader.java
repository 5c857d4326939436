package dev.lockscope.analysis.model;

import dev.lockscope.core.CallStack;
import dev.lockscope.analysis.jfr.JfrChunk;
import dev.lockscope.analysis.jfr.JfrFile;
import dev.lockscope.analysis.jfr.JfrType;
import dev.lockscope.analysis.jfr.ReadingProgress;
import dev.lockscope.core.EventNames;
import dev.lockscope.core.HoldHistogram;
import dev.lockscope.core.Frame;
import dev.lockscope.core.ThreadNames;
import dev.lockscope.core.VirtualMonitorEnters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a JFR recording in one pass with lockscope's own parser ({@link JfrFile}, {@link JfrChunk})
 * and feeds its events to {@link RecordingVisitor}s. The only class that maps JFR event and field
 * names (from {@link EventNames}) to model records.
 *
 * <p>Memory does not grow with the number of events: one chunk is mapped at a time, each event is
 * turned into a small model record at once and the records of a chunk are put in commit order (as
 * JFR's own ordered stream did, which held a chunk's events too), strings and call chains are interned
 * (one copy per distinct text or stack), and {@link EventOrder} holds a bounded window. A damaged chunk is
 * skipped and reported in {@link RecordingInfo#warnings()}. On more than one core the reading runs on a
 * thread of its own and the visitors on the caller's ({@link VisitorHandOff}), with the same calls in the
 * same order.
 */
public final class RecordingReader {
    /** Frames of lockscope's own hooks sit on top of LockSupport in every stack the agent records. */
    private static final String HOOK_PREFIX = "dev.lockscope.agent.boot.";
    /** Events held to put lockscope's events into sequence order (and JFR's into end order). */
    static final int REORDER_WINDOW = 1 << 14;

    private final Map<Long, ThreadRef> threads = new TreeMap<>();
    private final Map<String, String> strings = new HashMap<>();
    private final Map<List<String>, List<String>> stacks = new HashMap<>();
    /** One {@link Frame} per distinct frame text, shared by the stacks that hold it. */
    private final Map<String, Frame> frames = new HashMap<>();
    private final EventOrder order;
    private final List<ThreadVisitor> threadVisitors = new ArrayList<>();
    private long start = Long.MAX_VALUE;
    /**
     * The earliest chunk's start as its header gives it: where JFR says the recording began (Recording.getStartTime),
     * the recording's span's start when it is earlier than the first event. JFR's start writes its first events 20 to
     * 70 ms after it, at varying times; the agent's exit table counts from this moment too, so both divide by one span.
     */
    private long firstChunkStart = Long.MAX_VALUE;
    /**
     * The latest chunk's end as its header gives it (start and duration; 0 for an unfinished chunk): where JFR says the
     * recording ended, the span's end when it is later than the last event (JFR's stop comes 10-20 ms after the last
     * event it writes; the agent's exit table ends its span there too).
     */
    private long lastChunkEnd = Long.MIN_VALUE;
    private long end = Long.MIN_VALUE;
    private long lockscopeEvents;
    /** Event types declared by any chunk's metadata (see {@link RecordingInfo#declaredEventTypes()}). */
    private final Set<String> declaredEventTypes = new TreeSet<>();
    /** Where the number of carriers of virtual threads comes from, best first. */
    private int parallelism;
    private int containerCpus;
    private int cpus;
    /** jdk.ExecutionSample's period as the recording's settings give it; 0 when they do not. */
    private long samplingPeriod;

    /** Told of every thread in each chunk's thread pool (bottle graphs name OS threads with them). */
    public interface ThreadVisitor {
        void thread(ThreadRef t);
    }

    private RecordingReader(List<RecordingVisitor> visitors, List<ThreadVisitor> threadVisitors) {
        this.order = new EventOrder(REORDER_WINDOW, visitors);
        this.threadVisitors.addAll(threadVisitors);
    }

    /**
     * Streams the recording through the visitors, then calls their {@link RecordingVisitor#finish}.
     *
     * @throws RecordingException with a one-line message when the file is missing, not a JFR recording,
     *                            or has no readable chunk
     */
    public static RecordingInfo read(Path path, RecordingVisitor... visitors) throws RecordingException {
        if (!Files.exists(path)) {
            throw new RecordingException("recording not found: " + path, null);
        }
        if (!Files.isRegularFile(path)) {
            throw new RecordingException("not a file: " + path, null);
        }
        try {
            if (Files.size(path) == 0) {
                throw new RecordingException(KilledRecording.emptyRecording(path,
                        Path.of(System.getProperty("java.io.tmpdir"))), null);
            }
            if (!JfrFile.startsWithMagic(path)) {
                throw new RecordingException("not a JFR recording (no Flight Recorder header): " + path, null);
            }
            if (VisitorHandOff.worthIt()) {
                return VisitorHandOff.read(List.of(visitors), (v, t) -> new RecordingReader(v, t).readAll(path));
            }
            return new RecordingReader(List.of(visitors), threadVisitors(List.of(visitors))).readAll(path);
        } catch (UncheckedIOException e) {
            throw failure(path, e.getCause());
        } catch (IOException e) {
            throw failure(path, e);
        }
    }

    static List<ThreadVisitor> threadVisitors(List<RecordingVisitor> visitors) {
        List<ThreadVisitor> threadVisitors = new ArrayList<>();
        for (RecordingVisitor v : visitors) {
            if (v instanceof ThreadVisitor t) {
                threadVisitors.add(t);
            }
        }
        return threadVisitors;
    }

    private static RecordingException failure(Path path, Exception e) {
        if (e instanceof NoSuchFileException) {
            return new RecordingException("recording not found: " + path, e);
        }
        if (e instanceof AccessDeniedException) {
            return new RecordingException("cannot read recording (permission denied): " + path, e);
        }
        return new RecordingException("cannot read recording: " + path + " (" + e.getMessage() + ")", e);
    }

    static String truncated() {
        return "recording is truncated (the JVM may still be writing it, or was killed)";
    }

    private RecordingInfo readAll(Path path) throws IOException, RecordingException {
        JfrFile.Summary summary = JfrFile.read(path, chunk -> new ChunkEvents(chunk).run());
        List<String> warnings = new ArrayList<>();
        if (summary.chunksRead() == 0) {
            throw new RecordingException((summary.unfinished() > 0 || summary.firstProblem().contains("cut")
                    ? truncated() : "recording is damaged (" + summary.firstProblem() + ")") + ": " + path, null);
        }
        if (!summary.complete()) {
            warnings.add(String.format("recording is damaged: %d of %d chunks skipped, %d of %d bytes (%.1f%%) lost (%s)",
                    summary.chunksDamaged(), summary.chunksDamaged() + summary.chunksRead(), summary.bytesLost(),
                    summary.fileBytes(), 100.0 * summary.bytesLost() / summary.fileBytes(), summary.firstProblem()));
        }
        if (summary.chunksRepeated() > 0) {
            warnings.add("recording holds " + summary.chunksRepeated() + " chunk(s) a second time (its file was written "
                    + "twice): each chunk read once");
        }
        if (summary.unfinished() > 0) {
            warnings.add("recording was not finished by its JVM (killed?): read up to its last flush");
        }
        if (lockscopeEvents == 0 && declaredEventTypes.stream().noneMatch(t -> t.startsWith(EventNames.LOCKSCOPE_PREFIX))) {
            warnings.add("recording has no lockscope events: park contention is missing (was it made with the lockscope agent?)");
        }
        int carriers = parallelism > 0 ? parallelism : containerCpus > 0 ? containerCpus : cpus;
        if (carriers > 0) {
            order.virtualThreadCarriers(carriers);
        }
        boolean any = start != Long.MAX_VALUE;
        RecordingInfo info = new RecordingInfo(path, any ? Math.min(start, firstChunkStart) : 0, any ? Math.max(end, lastChunkEnd) : 0,
                threads, warnings,
                declaredEventTypes);
        order.finish(info);
        return info;
    }

    /**
     * What is made of one kind of event: a method per kind rather than one switch over all of them, so
     * that the JIT compiles each on its own (a switch over every kind was compiled again each time a
     * recording showed a kind it had not met yet).
     */
    private interface Kind {
        void event(JfrType type, long[] v, String[] s, int[] f, long beginNanos, long endNanos);
    }

    /** The field positions of one event type in one chunk; -1 where the chunk's JDK lacks a field. */
    private static final class Layout {
        final Kind kind;
        final int[] fields;

        Layout(Kind kind, JfrType t, String... names) {
            this.kind = kind;
            fields = new int[names.length];
            for (int i = 0; i < names.length; i++) {
                fields[i] = t.field(names[i]);
            }
        }
    }


    /** One chunk's events turned into model records, with its threads and stacks resolved once each. */
    private final class ChunkEvents implements JfrChunk.EventHandler {
        private final JfrChunk chunk;
        /** By type: the chunk's types are distinct objects, so identity is equality (no boxed id per event). */
        private final Map<JfrType, Layout> layouts = new IdentityHashMap<>();
        private final Map<Long, ThreadRef> chunkThreads = new HashMap<>();
        private final Map<Long, List<String>> chunkStacks = new HashMap<>();
        /** Class names by their constant-pool key in this chunk (a null name kept too). */
        private final Map<Long, String> chunkClassNames = new HashMap<>();
        private final JfrType threadType;
        private final JfrType stackType;
        private final JfrType classType;

        ChunkEvents(JfrChunk chunk) {
            this.chunk = chunk;
            firstChunkStart = Math.min(firstChunkStart, chunk.startNanos);
            if (chunk.durationNanos > 0) {
                lastChunkEnd = Math.max(lastChunkEnd, chunk.startNanos + chunk.durationNanos);
            }
            threadType = chunk.type("java.lang.Thread");
            stackType = chunk.type("jdk.types.StackTrace");
            classType = chunk.type("java.lang.Class");
            for (JfrType t : chunk.types()) {
                if ("jdk.jfr.Event".equals(t.superType)) {
                    declaredEventTypes.add(t.name);
                }
            }
            for (String park : List.of(EventNames.PARK, EventNames.IDLE_PARK)) { // an idle park has no stackTrace field: no frames
                layout(park, this::park, "eventThread", "stackTrace", "blockerClass", "blockerHash", "handoffAtPark",
                        "handoffAtWake", "timedOut", "ownerTid", "ownerName", "timeoutNanos", "deadlineMillis",
                        "standsForNanos", "unrecordedUnparks");
            }
            for (String unpark : List.of(EventNames.UNPARK, EventNames.CONDITION_UNPARK)) { // a condition's: no stackTrace field
                layout(unpark, this::unpark, "eventThread", "stackTrace", "handoff", "targetTid", "targetName",
                        "blockerClass", "blockerHash", "unrecordedBefore");
            }
            layout(EventNames.LOCK_SUMMARY, this::lockSummary, "blockerClass", "blockerHash", "collectionThreshold", "collecting",
                    "timesParked", "parkedNow", "peakParked", "threadTimeNanos", "realTimeNanos", "lifeTimeNanos",
                    "firstThread", "firstFrames", "collectedObjects", "siteRealTimeNanos", "batch");
            layout(EventNames.STACK_BUDGET, this::stackBudget, "perSecond", "parksDropped", "parkNanosDropped",
                    "unparksDropped", "batch");
            layout(EventNames.DEEP_LOCK, this::deepLock, deepFields("lockClass", "lockHash", "kind", "firstLocker", "firstSite",
                    "lockedByOthers", "firstRunAll", "firstRunNonRecursive", "firstLockerNonRecursive", "fatSections",
                    "flatSections", "fatOps", "flatOps"));
            layout(EventNames.DEEP_SITE, this::deepSite, deepFields("site", "kind"));
            layout(EventNames.DEEP_INFO, this::deepInfo, "selection", "classes", "sites", "untracked", "probeNanos",
                    "holdInflationNanos", "probeFailures");
            layout(EventNames.DEEP_RELEASE, this::deepRelease, "eventThread", "stackTrace", "lockClass", "lockHash", "heldNanos");
            layout(EventNames.THREAD_CPU, this::threadCpu, "sample", "osTid", "osName", "cpuNanos");
            layout(EventNames.MACHINE_CPU, this::machineCpu, "sample", "busyNanos", "stealNanos", "cpus",
                    "threadTimesExcludeSteal", "problem");
            layout(EventNames.VIRTUAL_MONITOR_ENTER, this::virtualMonitorEnter, "virtualThreadId", "virtualThreadName",
                    "frames", "monitorClass", "monitorHash");
            layout(EventNames.CARRIER_MOUNT, this::carrierMount, "carrierThreadId", "virtualThreadId", "mountNanos",
                    "unmountNanos", "nanoTime", "lostIntervals");
            layout(EventNames.VIRTUAL_THREAD_PINNED, this::pinned, "eventThread", "stackTrace");
            layout(EventNames.CPU_INFORMATION, this::cpuInformation, "hwThreads");
            layout(EventNames.CONTAINER_CONFIGURATION, this::containerConfiguration, "effectiveCpuCount");
            layout(EventNames.INITIAL_SYSTEM_PROPERTY, this::systemProperty, "key", "value");
            layout(EventNames.MONITOR_ENTER, this::monitorEnter, "eventThread", "stackTrace", "monitorClass", "address",
                    "previousOwner");
            layout(EventNames.MONITOR_WAIT, this::monitorWait, "eventThread", "stackTrace", "monitorClass", "address",
                    "notifier", "timedOut", "timeout");
            layout(EventNames.EXECUTION_SAMPLE, this::sample, "sampledThread", "stackTrace");
            layout(EventNames.CPU_TIME_SAMPLE, this::sample, "eventThread", "stackTrace");
            layout(EventNames.THREAD_SLEEP, this::sleep, "eventThread", "stackTrace");
            layout(EventNames.THREAD_START, this::threadLife, "thread");
            layout(EventNames.THREAD_END, this::threadLife, "thread");
            layout(EventNames.THREAD_PARK, this::jdkPark, "eventThread", "stackTrace", "parkedClass");
            layout(EventNames.ACTIVE_SETTING, this::activeSetting, "id", "name", "value");
            for (String io : EventNames.BLOCKING_IO) {
                layout(io, this::blockingIo, "eventThread", "stackTrace");
            }
            for (JfrType t : chunk.types()) {
                if (t.name.equals(EventNames.EXECUTION_SAMPLE) || t.name.equals(EventNames.CPU_TIME_SAMPLE)) {
                    executionSampleTypes.add(t.id);
                }
            }
        }

        /** The type ids of jdk.ExecutionSample and jdk.CPUTimeSample in this chunk, whose period {@link #event} reads. */
        private final java.util.Set<Long> executionSampleTypes = new java.util.HashSet<>();

        /** A deep-mode event's own fields, then the counts every one of them has (read by {@link #deepCounts}). */
        private static String[] deepFields(String... own) {
            String[] counts = {"gets", "nonRecursive", "slow", "recursive", "tryFailures", "waits", "notifies", "sections",
                    "holdNanos", "maxHoldNanos", "holdHistogram", "blocked", "timedSections"};
            String[] all = java.util.Arrays.copyOf(own, own.length + counts.length);
            System.arraycopy(counts, 0, all, own.length, counts.length);
            return all;
        }

        private static DeepCounts deepCounts(long[] v, String[] s, int[] f, int from) {
            return new DeepCounts(at(v, f[from]), at(v, f[from + 1]), at(v, f[from + 2]), at(v, f[from + 3]),
                    at(v, f[from + 4]), at(v, f[from + 5]), at(v, f[from + 6]), at(v, f[from + 7]), at(v, f[from + 8]),
                    at(v, f[from + 9]), HoldHistogram.parse(at(s, f[from + 10])), at(v, f[from + 11]), timed(v, f, from));
        }

        /** Timed sections; a recording from before sampling timed every section. */
        private static long timed(long[] v, int[] f, int from) {
            return f[from + 12] < 0 ? at(v, f[from + 7]) : at(v, f[from + 12]);
        }

        private void layout(String event, Kind kind, String... fields) {
            for (JfrType t : chunk.types()) {
                if (t.name.equals(event)) { // two classes of one name may be registered in a JVM: both are read
                    layouts.put(t, new Layout(kind, t, fields));
                }
            }
        }

        void run() {
            if (!threadVisitors.isEmpty() && threadType != null) {
                for (Long key : chunk.pool(threadType.name).keySet()) {
                    ThreadRef t = resolveThread(key);
                    if (t != null) {
                        threadVisitors.forEach(v -> v.thread(t));
                    }
                }
            }
            // In commit order (end time, then file order), as JFR's ordered EventStream delivered them:
            // JFR writes each thread's buffer as a block, further out of order than EventOrder's
            // windows repair. A first pass notes when and where each event of interest ended, the
            // second reads them again in that order, so a chunk's events are never all held as
            // objects (they made the heap hold a chunk's worth of records, which every GC copied).
            chunk.eventTimes(this::indexEvent);
            int handed = 0;
            for (int i : endOrder(ends, indexed)) {
                chunk.eventAt(positions[i], this);
                if ((++handed & PROGRESS_EVENTS - 1) == 0) {
                    ReadingProgress.throughChunk((double) handed / indexed);
                }
            }
        }

        /** Events between two reports of the reading's progress (a power of two). */
        private static final int PROGRESS_EVENTS = 1 << 12;

        /** End time and position of the events of interest, in file order; {@code indexed} of them. */
        private long[] ends = new long[1 << 10];
        private int[] positions = new int[1 << 10];
        private int indexed;

        private void indexEvent(JfrType type, long startTicks, long durationTicks, int position) {
            long b = chunk.nanos(startTicks);
            long en = type.durationField < 0 ? b : chunk.nanos(startTicks + durationTicks);
            start = Math.min(start, b);
            end = Math.max(end, en);
            if (layouts.get(type) == null) {
                return; // other events only widen the recording's time span
            }
            if (indexed == ends.length) {
                ends = Arrays.copyOf(ends, 2 * indexed);
                positions = Arrays.copyOf(positions, 2 * indexed);
            }
            ends[indexed] = en;
            positions[indexed] = position;
            indexed++;
        }

        @Override
        public void event(JfrType type, long[] v, String[] s) {
            Layout layout = layouts.get(type); // indexEvent took only events with a layout
            long startTicks = v[type.startTimeField];
            int durationField = type.durationField;
            long b = chunk.nanos(startTicks);
            long en = durationField < 0 ? b : chunk.nanos(startTicks + v[durationField]);
            int[] f = layout.fields;
            layout.kind.event(type, v, s, f, b, en);
        }

        private void park(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            order.park(new ParkWait(thread(at(v, f[0])), blockerClass(at(s, f[2])), (int) at(v, f[3]), b, en,
                    at(v, f[4]), at(v, f[5]), at(v, f[6]) != 0, at(v, f[7]), text(at(s, f[8])), at(v, f[9]),
                    at(v, f[10]), frames(at(v, f[1])), type.name.equals(EventNames.IDLE_PARK),
                    ParkWait.weightOf(at(v, f[11]), en - b), at(v, f[12])));
        }

        private void lockSummary(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            order.timed(b, new LockSummary(b, blockerClass(at(s, f[0])), (int) at(v, f[1]), at(v, f[2]), at(v, f[3]) != 0,
                    at(v, f[4]), (int) at(v, f[5]), (int) at(v, f[6]), at(v, f[7]), at(v, f[8]), at(v, f[9]),
                    text(at(s, f[10])), lines(at(s, f[11])), (int) at(v, f[12]), at(v, f[13]), at(v, f[14])));
        }

        private void stackBudget(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            order.timed(b, new StackBudget(b, at(v, f[0]), at(v, f[1]), at(v, f[2]), at(v, f[3]), at(v, f[4])));
        }

        private void deepLock(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            order.timed(b, new DeepLock(b, blockerClass(at(s, f[0])), (int) at(v, f[1]), text(at(s, f[2])),
                    deepCounts(v, s, f, 13), text(at(s, f[3])), text(at(s, f[4])), at(v, f[5]) != 0, at(v, f[6]),
                    at(v, f[7]), at(v, f[8]), new DeepLock.Sections(at(v, f[9]), at(v, f[10]), at(v, f[11]), at(v, f[12]))));
        }

        private void deepSite(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            order.timed(b, new DeepSite(b, blockerClass(at(s, f[0])), text(at(s, f[1])), deepCounts(v, s, f, 2)));
        }

        private void deepInfo(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            order.timed(b, new DeepInfo(b, text(at(s, f[0])), at(v, f[1]), at(v, f[2]), at(v, f[3]), at(v, f[4]),
                    at(v, f[5]), at(v, f[6])));
        }

        private void deepRelease(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            order.timed(b, new DeepRelease(thread(at(v, f[0])), b, blockerClass(at(s, f[2])), (int) at(v, f[3]), at(v, f[4]),
                    frames(at(v, f[1]))));
        }

        private void carrierMount(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            // nanoTime was read at the event's start: the offset from the agent's clock to the recording's
            order.timed(b, new CarrierMount(at(v, f[0]), at(v, f[1]), at(v, f[2]), at(v, f[3]), b - at(v, f[4]),
                    at(v, f[5])));
        }

        private void virtualMonitorEnter(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            long vtid = at(v, f[0]);
            ThreadRef waiter = new ThreadRef(vtid, 0, text(ThreadNames.virtual(vtid, at(s, f[1]))), true);
            threads.put(vtid, waiter);
            List<String> frames = lines(at(s, f[2]));
            String recordedClass = at(s, f[3]);
            long identity = VirtualMonitorEnters.identity(recordedClass, (int) at(v, f[4]), frames);
            order.timed(en, new MonitorEnter(waiter, text(VirtualMonitorEnters.monitorClass(recordedClass, frames)), identity, b, en,
                    VirtualThreads.PREVIOUS_ACQUIRER, frames));
        }

        private void threadCpu(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            order.timed(b, new ThreadCpu(b, at(v, f[0]), at(v, f[1]), text(at(s, f[2])), at(v, f[3])));
        }

        private void machineCpu(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            order.timed(b, new MachineCpu(b, at(v, f[0]), at(v, f[1]), at(v, f[2]), (int) at(v, f[3]),
                    (int) at(v, f[4]), at(s, f[5])));
        }

        private void pinned(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            order.timed(en, new Interval(EventNames.VIRTUAL_THREAD_PINNED, thread(at(v, f[0])), b, en,
                    frames(at(v, f[1]))));
        }

        private void cpuInformation(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            cpus = (int) at(v, f[0]);
        }

        private void containerConfiguration(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            containerCpus = (int) Math.ceil(Double.longBitsToDouble(at(v, f[0])));
        }

        private void systemProperty(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            if ("jdk.virtualThreadScheduler.parallelism".equals(at(s, f[0]))) {
                parallelism = parseIntOrZero(at(s, f[1]));
            }
        }

        private void unpark(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            lockscopeEvents++;
            order.unpark(new Unpark(thread(at(v, f[0])), b, at(v, f[2]), at(v, f[3]), text(at(s, f[4])),
                    blockerClass(at(s, f[5])), (int) at(v, f[6]), frames(at(v, f[1])), at(v, f[7])));
        }

        private void monitorEnter(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            MonitorEnter entered = new MonitorEnter(thread(at(v, f[0])), className(at(v, f[2])), at(v, f[3]), b, en,
                    nullableThread(at(v, f[4])), frames(at(v, f[1])));
            order.timed(en, entered);
            if (entered.thread().virtual()) { // recorded for a virtual thread only while it is pinned
                order.timed(en, new Interval(EventNames.MONITOR_ENTER, entered.thread(), b, en, entered.frames()));
            }
        }

        private void monitorWait(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            order.timed(en, new MonitorWait(thread(at(v, f[0])), className(at(v, f[2])),
                    at(v, f[3]), b, en, nullableThread(at(v, f[4])), at(v, f[5]) != 0, at(v, f[6]),
                    frames(at(v, f[1]))));
        }

        private void sample(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            order.timed(b, new CpuSample(thread(at(v, f[0])), b, frames(at(v, f[1]))));
        }

        private void sleep(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            order.timed(en, new Interval(EventNames.THREAD_SLEEP, thread(at(v, f[0])), b, en,
                    frames(at(v, f[1]))));
        }

        private void jdkPark(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            order.timed(en, new JdkPark(thread(at(v, f[0])), nullableClassName(at(v, f[2])), b, en,
                    frames(at(v, f[1]))));
        }

        // threads are named by every event they appear in, the latest name winning
        private void threadLife(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            order.timed(b, new ThreadLife(thread(at(v, f[0])), b, type.name.equals(EventNames.THREAD_END)));
        }

        private void activeSetting(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            // jdk.CPUTimeSample's is "throttle", a CPU-time period or a rate (a rate gives no period)
            String setting = at(s, f[1]);
            if (executionSampleTypes.contains(at(v, f[0])) && ("period".equals(setting) || "throttle".equals(setting))) {
                long nanos = SamplingPeriod.parseNanos(at(s, f[2]));
                // several recordings may each set one: JFR samples at the shortest
                if (nanos > 0 && (samplingPeriod == 0 || nanos < samplingPeriod)) {
                    samplingPeriod = nanos;
                    order.cpuSamplingPeriod(nanos); // before this chunk's samples are delivered
                }
            }
        }

        private void blockingIo(JfrType type, long[] v, String[] s, int[] f, long b, long en) {
            order.timed(en, new Interval(type.name, thread(at(v, f[0])), b, en, frames(at(v, f[1]))));
        }

        private static long at(long[] values, int field) {
            return field < 0 ? 0 : values[field];
        }

        private static String at(String[] values, int field) {
            return field < 0 ? null : values[field];
        }

        private ThreadRef thread(long key) {
            ThreadRef t = nullableThread(key);
            return t == null ? ThreadRef.UNKNOWN : t;
        }

        private ThreadRef nullableThread(long key) {
            ThreadRef cached = chunkThreads.get(key);
            if (cached != null) {
                return cached;
            }
            ThreadRef ref = resolveThread(key);
            if (ref == null) {
                return null;
            }
            ThreadRef known = threads.get(ref.javaTid());
            if (known != null && known.equals(ref)) {
                ref = known;
            } else {
                threads.put(ref.javaTid(), ref); // a renamed thread keeps its latest name
            }
            chunkThreads.put(key, ref);
            return ref;
        }

        /** The thread of a constant-pool key, not yet counted as seen by an event. */
        private ThreadRef resolveThread(long key) {
            if (key == 0 || threadType == null || !(chunk.constant(threadType.id, key) instanceof Object[] t)) {
                return null;
            }
            String javaName = stringField(t, threadType, "javaName");
            String name = javaName != null ? javaName : stringField(t, threadType, "osName");
            long tid = longField(t, threadType, "javaThreadId");
            boolean virtual = longField(t, threadType, "virtual") != 0; // the field is JDK 21+
            return new ThreadRef(tid, longField(t, threadType, "osThreadId"),
                    virtual ? text(ThreadNames.virtual(tid, javaName)) : name == null ? "?" : text(name), virtual);
        }

        private String className(long key) {
            String name = nullableClassName(key);
            return name == null ? "?" : name;
        }

        private String nullableClassName(long key) {
            // one lookup per event; the class's symbol resolved and its name made once per chunk
            String cached = chunkClassNames.get(key);
            if (cached != null || chunkClassNames.containsKey(key)) {
                return cached;
            }
            String name = classType == null ? null : classNameOf(chunk.constant(classType.id, key));
            String interned = name == null ? null : text(name);
            chunkClassNames.put(key, interned);
            return interned;
        }

        private String classNameOf(Object cls) {
            if (!(cls instanceof Object[] c)) {
                return null;
            }
            String name = symbol(c, classType, "name");
            return name == null ? null : name.replace('/', '.');
        }

        /** A field that refers to a jdk.types.Symbol, resolved to its text. */
        private String symbol(Object[] values, JfrType type, String field) {
            int i = type.field(field);
            if (i < 0 || !(values[i] instanceof Long key)) {
                return null;
            }
            long symbolType = type.fields().get(i).typeId();
            Object sym = chunk.constant(symbolType, key);
            JfrType st = chunk.type(symbolType);
            return sym instanceof Object[] sv && st != null ? stringField(sv, st, "string") : null;
        }

        private List<String> frames(long key) {
            if (key == 0 || stackType == null) {
                return List.of();
            }
            List<String> cached = chunkStacks.get(key);
            if (cached != null) {
                return cached;
            }
            List<String> out = new ArrayList<>();
            if (chunk.constant(stackType.id, key) instanceof Object[] st && field(st, stackType, "frames") instanceof Object[] fs) {
                JfrType frameType = chunk.type("jdk.types.StackFrame");
                JfrType methodType = chunk.type("jdk.types.Method");
                for (Object fo : fs) {
                    if (!(fo instanceof Object[] frame) || frameType == null || methodType == null) {
                        continue;
                    }
                    if (!(field(frame, frameType, "method") instanceof Long mk)
                            || !(chunk.constant(methodType.id, mk) instanceof Object[] method)) {
                        continue;
                    }
                    String cls = method(method, methodType);
                    if (cls == null) {
                        continue;
                    }
                    if (out.isEmpty() && cls.startsWith(HOOK_PREFIX)) {
                        continue;
                    }
                    String name = symbol(method, methodType, "name");
                    out.add(text(Frame.format(cls, name, (int) longField(frame, frameType, "lineNumber"))));
                }
            }
            List<String> interned = stacks.computeIfAbsent(CallStack.of(out, RecordingReader.this::frame), k -> k);
            chunkStacks.put(key, interned);
            return interned;
        }

        private String method(Object[] method, JfrType methodType) {
            Object typeKey = field(method, methodType, "type");
            return typeKey instanceof Long k && classType != null ? classNameOf(chunk.constant(classType.id, k)) : null;
        }
    }

    /**
     * Indices 0 to n − 1 ordered by {@code keys}, equal keys in index order: a stable bottom-up merge
     * sort on primitives, which only checks two neighbouring runs that are already in order.
     */
    static int[] endOrder(long[] keys, int n) {
        int[] from = new int[n];
        for (int i = 0; i < n; i++) {
            from[i] = i;
        }
        int[] to = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                if (mid >= hi || keys[from[mid - 1]] <= keys[from[mid]]) {
                    System.arraycopy(from, lo, to, lo, hi - lo);
                    continue;
                }
                int left = lo;
                int right = mid;
                for (int k = lo; k < hi; k++) {
                    to[k] = right >= hi || left < mid && keys[from[left]] <= keys[from[right]] ? from[left++] : from[right++];
                }
            }
            int[] swap = from;
            from = to;
            to = swap;
        }
        return from;
    }

    private static Object field(Object[] values, JfrType type, String name) {
        int i = type.field(name);
        return i < 0 || i >= values.length ? null : values[i];
    }

    private static long longField(Object[] values, JfrType type, String name) {
        return field(values, type, name) instanceof Long l ? l : 0;
    }

    private static String stringField(Object[] values, JfrType type, String name) {
        return field(values, type, name) instanceof String s ? s : null;
    }

    /** Frames the agent wrote into a string field, one per line (innermost first). */
    private List<String> lines(String joined) {
        List<String> out = VirtualMonitorEnters.frames(joined);
        out.replaceAll(this::text);
        return stacks.computeIfAbsent(CallStack.of(out, this::frame), k -> k);
    }

    private static int parseIntOrZero(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** A blocker's class name; "?" when the event lacks it, as for a monitor's class. */
    private String blockerClass(String s) {
        return s == null ? "?" : text(s);
    }

    private Frame frame(String text) {
        return frames.computeIfAbsent(text, Frame::parse);
    }

    private String text(String s) {
        return s == null ? null : strings.computeIfAbsent(s, k -> k);
    }
}
