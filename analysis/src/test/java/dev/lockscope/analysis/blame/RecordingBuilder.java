package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.MonitorWait;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Hand-built recordings for analyzer tests; times are given in milliseconds. */
final class RecordingBuilder {
    static final long MS = 1_000_000L;
    static final String RL = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
    static final String RWL = "java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync";
    static final String COND = "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject";
    static final String SEMAPHORE = "java.util.concurrent.Semaphore$NonfairSync";
    static final List<String> UNLOCK = List.of("java.util.concurrent.locks.LockSupport.unpark:177",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer.signalNext:611",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer.release:1007",
            "java.util.concurrent.locks.ReentrantLock.unlock:494");
    static final List<String> LOCK = List.of("java.util.concurrent.locks.LockSupport.park:211",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire:715",
            "java.util.concurrent.locks.ReentrantLock.lock:322");

    private final Map<Long, ThreadRef> threads = new TreeMap<>();
    private final List<ParkWait> parks = new ArrayList<>();
    private final List<Unpark> unparks = new ArrayList<>();
    private final List<MonitorEnter> enters = new ArrayList<>();
    private final List<MonitorWait> waits = new ArrayList<>();
    private final List<CpuSample> samples = new ArrayList<>();
    private final List<Interval> sleeps = new ArrayList<>();
    private long end;

    ThreadRef thread(long tid, String name) {
        ThreadRef t = new ThreadRef(tid, tid + 1000, name);
        threads.put(tid, t);
        return t;
    }

    static List<String> chain(List<String> internals, String... userFrames) {
        List<String> out = new ArrayList<>(internals);
        out.addAll(List.of(userFrames));
        return out;
    }

    RecordingBuilder park(ThreadRef t, String cls, int hash, double beginMs, double endMs, long beginSeq, long endSeq,
                          List<String> frames) {
        return park(t, cls, hash, beginMs, endMs, beginSeq, endSeq, 0, null, frames);
    }

    RecordingBuilder park(ThreadRef t, String cls, int hash, double beginMs, double endMs, long beginSeq, long endSeq,
                          long ownerTid, String ownerName, List<String> frames) {
        parks.add(new ParkWait(t, cls, hash, ns(beginMs), endMs < 0 ? LockRecording.OPEN : ns(endMs), beginSeq, endSeq,
                false, ownerTid, ownerName, 0, 0, frames));
        end = Math.max(end, ns(Math.max(beginMs, endMs)));
        return this;
    }

    /** The park added last was sampled by the agent: it stands for {@code weight} parks like it (ParkWait#weight). */
    RecordingBuilder sampled(double weight) {
        return lastPark(weight, 0);
    }

    /** The park added last woke with its thread having made {@code n} unparks it did not record (ParkWait#unrecordedUnparks). */
    RecordingBuilder unrecordedUnparks(long n) {
        return lastPark(1, n);
    }

    private RecordingBuilder lastPark(double weight, long unrecordedUnparks) {
        ParkWait p = parks.remove(parks.size() - 1);
        parks.add(new ParkWait(p.thread(), p.blockerClass(), p.blockerHash(), p.beginNanos(), p.endNanos(), p.beginSeq(),
                p.endSeq(), p.timedOut(), p.ownerTid(), p.ownerName(), p.timeoutNanos(), p.deadlineMillis(), p.frames(),
                p.idle(), weight, unrecordedUnparks));
        return this;
    }

    RecordingBuilder unpark(ThreadRef by, double atMs, long seq, ThreadRef target, String cls, int hash, List<String> frames) {
        return unpark(by, atMs, seq, target, cls, hash, frames, 0);
    }

    /** An unpark after {@code unrecordedBefore} unparks its thread did not record (Unpark#unrecordedBefore). */
    RecordingBuilder unpark(ThreadRef by, double atMs, long seq, ThreadRef target, String cls, int hash, List<String> frames,
                            long unrecordedBefore) {
        unparks.add(new Unpark(by, ns(atMs), seq, target.javaTid(), target.name(), cls, hash, frames, unrecordedBefore));
        return this;
    }

    RecordingBuilder enter(ThreadRef t, String cls, long address, double beginMs, double endMs, ThreadRef previousOwner,
                           List<String> frames) {
        enters.add(new MonitorEnter(t, cls, address, ns(beginMs), ns(endMs), previousOwner, frames));
        end = Math.max(end, ns(endMs));
        return this;
    }

    RecordingBuilder monitorWait(ThreadRef t, String cls, long address, double beginMs, double endMs, ThreadRef notifier,
                                 List<String> frames) {
        waits.add(new MonitorWait(t, cls, address, ns(beginMs), ns(endMs), notifier, notifier == null, 0, frames));
        return this;
    }

    RecordingBuilder sample(ThreadRef t, double atMs, List<String> frames) {
        samples.add(new CpuSample(t, ns(atMs), frames));
        return this;
    }

    /** {@code jdk.ThreadSleep}. */
    RecordingBuilder sleep(ThreadRef t, double beginMs, double endMs, List<String> frames) {
        sleeps.add(new Interval("jdk.ThreadSleep", t, ns(beginMs), ns(endMs), frames));
        return this;
    }

    /** {@code jdk.SocketRead}: blocked in I/O. */
    RecordingBuilder socketRead(ThreadRef t, double beginMs, double endMs, List<String> frames) {
        sleeps.add(new Interval(dev.lockscope.core.EventNames.SOCKET_READ, t, ns(beginMs), ns(endMs), frames));
        return this;
    }

    RecordingBuilder endAt(double ms) {
        end = ns(ms);
        return this;
    }

    LockRecording build() {
        parks.sort(Comparator.comparingLong(ParkWait::beginNanos).thenComparingLong(ParkWait::beginSeq));
        unparks.sort(Comparator.comparingLong(Unpark::seq));
        enters.sort(Comparator.comparingLong(MonitorEnter::beginNanos).thenComparingLong(m -> m.thread().javaTid()));
        waits.sort(Comparator.comparingLong(MonitorWait::beginNanos));
        samples.sort(Comparator.comparingLong(CpuSample::timeNanos));
        return new LockRecording(Path.of("hand-built.jfr"), 0, end, Map.copyOf(threads), parks, unparks, enters, waits,
                samples, sleeps);
    }

    static long ns(double ms) {
        return Math.round(ms * MS);
    }
}
