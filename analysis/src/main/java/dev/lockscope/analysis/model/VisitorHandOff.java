package dev.lockscope.analysis.model;


import java.io.IOException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

/**
 * Runs the reading of a recording (parsing, and {@link EventOrder}'s reorder windows) on a thread of its
 * own and the analyses on the caller's thread, so that on a machine with more than one core the two
 * halves of {@link RecordingReader#read} run at the same time.
 *
 * <p>The reading side sees one {@link RecordingVisitor} (and {@link RecordingReader.ThreadVisitor}) that
 * writes each call down in a batch; the caller's thread makes the same calls, in the same order, on the
 * real visitors. The visitors therefore see exactly the call sequence of a reading on one thread (every
 * order guarantee of {@link RecordingVisitor} holds as it is), and are only ever touched by the caller's
 * thread. Memory stays bounded: at most {@link #QUEUED_BATCHES} full batches wait between the two sides.
 *
 * <p>Shared: the queue of batches. The reading thread writes a batch, then puts it; the caller's thread
 * takes it, then reads it: the queue's put/take is the happens-before edge that publishes the batch and
 * every model record in it (records are immutable once made). A failure on either side ends both: the
 * reading side's is handed over as the last batch and rethrown on the caller's thread; the caller's
 * (a visitor threw) sets {@link #abandoned}, which the reading side checks whenever it hands a batch over.
 */
final class VisitorHandOff {
    private static final int BATCH_CALLS = 1 << 13;
    private static final int QUEUED_BATCHES = 4;

    /** The reading of a recording, fed to the visitors it is given. */
    interface Reading {
        RecordingInfo read(List<RecordingVisitor> visitors, List<RecordingReader.ThreadVisitor> threadVisitors)
                throws IOException, RecordingException;
    }

    private static final byte PARK_BEGIN = 0;
    private static final byte UNPARK = 1;
    private static final byte PARK_END = 2;
    private static final byte MONITOR_ENTER = 3;
    private static final byte MONITOR_WAIT = 4;
    private static final byte CPU_SAMPLE = 5;
    private static final byte LOCK_SUMMARY = 6;
    private static final byte DEEP_LOCK = 7;
    private static final byte DEEP_SITE = 8;
    private static final byte DEEP_INFO = 9;
    private static final byte SLEEP = 10;
    private static final byte JDK_PARK = 11;
    private static final byte BLOCKING_IO = 12;
    private static final byte CPU_SAMPLING_PERIOD = 13;
    private static final byte THREAD_CPU = 14;
    private static final byte MACHINE_CPU = 15;
    private static final byte THREAD_LIFE = 16;
    private static final byte PINNED = 17;
    private static final byte VIRTUAL_THREAD_CARRIERS = 18;
    private static final byte FINISH = 19;
    private static final byte THREAD = 20;
    private static final byte DEEP_RELEASE = 21;
    private static final byte CARRIER_MOUNT = 22;
    private static final byte STACK_BUDGET = 23;

    /** Calls written down in order: what was called, and its argument (a number boxed). */
    private static final class Batch {
        final byte[] calls = new byte[BATCH_CALLS];
        final Object[] arguments = new Object[BATCH_CALLS];
        int size;
        /** In the last batch: what the reading returned, or how it failed. */
        boolean last;
        RecordingInfo info;
        Throwable failure;
    }

    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(QUEUED_BATCHES);
    /** Set by the caller's thread when it stops taking batches; the reading side then gives up. */
    private volatile boolean abandoned;
    private Batch batch = new Batch();

    private VisitorHandOff() {
    }

    /**
     * Whether reading on a thread of its own can help: on one core the hand-off is only overhead.
     */
    static boolean worthIt() {
        return Runtime.getRuntime().availableProcessors() > 1;
    }

    /** Runs {@code reading} on a thread of its own, its visitor calls made on {@code visitors} by this thread. */
    static RecordingInfo read(List<RecordingVisitor> visitors, Reading reading) throws IOException, RecordingException {
        VisitorHandOff handOff = new VisitorHandOff();
        List<RecordingReader.ThreadVisitor> threadVisitors = RecordingReader.threadVisitors(visitors);
        Recorder recorder = handOff.new Recorder();
        Thread reader = new Thread(() -> handOff.produce(reading, recorder, !threadVisitors.isEmpty()), "lockscope-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            return handOff.replay(visitors, threadVisitors);
        } catch (RuntimeException | Error | IOException | RecordingException e) {
            handOff.abandoned = true;
            throw e;
        }
    }

    private void produce(Reading reading, Recorder recorder, boolean threads) {
        RecordingInfo info = null;
        Throwable failure = null;
        try {
            info = reading.read(List.of(recorder), threads ? List.of(recorder) : List.of());
        } catch (CancellationException e) {
            return; // the caller's thread failed and is gone
        } catch (Throwable t) {
            failure = t;
        }
        batch.last = true;
        batch.info = info;
        batch.failure = failure;
        try {
            handOver();
        } catch (CancellationException e) {
            // nobody is waiting any more
        }
    }

    private void record(byte call, Object argument) {
        Batch b = batch;
        b.calls[b.size] = call;
        b.arguments[b.size] = argument;
        if (++b.size == BATCH_CALLS) {
            handOver();
            batch = new Batch();
        }
    }

    /** Puts the current batch into the queue, waiting while it is full, unless the caller's thread gave up. */
    private void handOver() {
        try {
            while (!queue.offer(batch, 100, TimeUnit.MILLISECONDS)) {
                if (abandoned) {
                    throw new CancellationException();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException();
        }
    }

    private RecordingInfo replay(List<RecordingVisitor> visitorList, List<RecordingReader.ThreadVisitor> threadVisitors)
            throws IOException, RecordingException {
        RecordingVisitor[] visitors = visitorList.toArray(RecordingVisitor[]::new);
        while (true) {
            Batch b;
            try {
                b = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RecordingException("reading the recording was interrupted", e);
            }
            for (int i = 0; i < b.size; i++) {
                Object a = b.arguments[i];
                switch (b.calls[i]) {
                    case PARK_BEGIN -> {
                        for (RecordingVisitor v : visitors) {
                            v.parkBegin((ParkWait) a);
                        }
                    }
                    case UNPARK -> {
                        for (RecordingVisitor v : visitors) {
                            v.unpark((Unpark) a);
                        }
                    }
                    case PARK_END -> {
                        for (RecordingVisitor v : visitors) {
                            v.parkEnd((ParkWait) a);
                        }
                    }
                    case MONITOR_ENTER -> {
                        for (RecordingVisitor v : visitors) {
                            v.monitorEnter((MonitorEnter) a);
                        }
                    }
                    case MONITOR_WAIT -> {
                        for (RecordingVisitor v : visitors) {
                            v.monitorWait((MonitorWait) a);
                        }
                    }
                    case CPU_SAMPLE -> {
                        for (RecordingVisitor v : visitors) {
                            v.cpuSample((CpuSample) a);
                        }
                    }
                    case LOCK_SUMMARY -> {
                        for (RecordingVisitor v : visitors) {
                            v.lockSummary((LockSummary) a);
                        }
                    }
                    case DEEP_LOCK -> {
                        for (RecordingVisitor v : visitors) {
                            v.deepLock((DeepLock) a);
                        }
                    }
                    case DEEP_SITE -> {
                        for (RecordingVisitor v : visitors) {
                            v.deepSite((DeepSite) a);
                        }
                    }
                    case STACK_BUDGET -> {
                        for (RecordingVisitor v : visitors) {
                            v.stackBudget((StackBudget) a);
                        }
                    }
                    case CARRIER_MOUNT -> {
                        for (RecordingVisitor v : visitors) {
                            v.carrierMount((CarrierMount) a);
                        }
                    }
                    case DEEP_RELEASE -> {
                        for (RecordingVisitor v : visitors) {
                            v.deepRelease((DeepRelease) a);
                        }
                    }
                    case DEEP_INFO -> {
                        for (RecordingVisitor v : visitors) {
                            v.deepInfo((DeepInfo) a);
                        }
                    }
                    case SLEEP -> {
                        for (RecordingVisitor v : visitors) {
                            v.sleep((Interval) a);
                        }
                    }
                    case JDK_PARK -> {
                        for (RecordingVisitor v : visitors) {
                            v.jdkPark((JdkPark) a);
                        }
                    }
                    case BLOCKING_IO -> {
                        for (RecordingVisitor v : visitors) {
                            v.blockingIo((Interval) a);
                        }
                    }
                    case CPU_SAMPLING_PERIOD -> {
                        for (RecordingVisitor v : visitors) {
                            v.cpuSamplingPeriod((Long) a);
                        }
                    }
                    case THREAD_CPU -> {
                        for (RecordingVisitor v : visitors) {
                            v.threadCpu((ThreadCpu) a);
                        }
                    }
                    case MACHINE_CPU -> {
                        for (RecordingVisitor v : visitors) {
                            v.machineCpu((MachineCpu) a);
                        }
                    }
                    case THREAD_LIFE -> {
                        for (RecordingVisitor v : visitors) {
                            v.threadLife((ThreadLife) a);
                        }
                    }
                    case PINNED -> {
                        for (RecordingVisitor v : visitors) {
                            v.pinned((Interval) a);
                        }
                    }
                    case VIRTUAL_THREAD_CARRIERS -> {
                        for (RecordingVisitor v : visitors) {
                            v.virtualThreadCarriers((Integer) a);
                        }
                    }
                    case FINISH -> {
                        for (RecordingVisitor v : visitors) {
                            v.finish((RecordingInfo) a);
                        }
                    }
                    case THREAD -> {
                        for (RecordingReader.ThreadVisitor v : threadVisitors) {
                            v.thread((ThreadRef) a);
                        }
                    }
                    default -> throw new IllegalStateException("unknown visitor call " + b.calls[i]);
                }
            }
            if (b.last) {
                Throwable t = b.failure;
                if (t == null) {
                    return b.info;
                }
                if (t instanceof IOException e) {
                    throw e;
                }
                if (t instanceof RecordingException e) {
                    throw e;
                }
                if (t instanceof RuntimeException e) {
                    throw e;
                }
                if (t instanceof Error e) {
                    throw e;
                }
                throw new IllegalStateException(t);
            }
        }
    }

    /** The reading side's one visitor: writes every call down. */
    private final class Recorder implements RecordingVisitor, RecordingReader.ThreadVisitor {
        @Override
        public void parkBegin(ParkWait open) {
            record(PARK_BEGIN, open);
        }

        @Override
        public void unpark(Unpark u) {
            record(UNPARK, u);
        }

        @Override
        public void parkEnd(ParkWait ended) {
            record(PARK_END, ended);
        }

        @Override
        public void monitorEnter(MonitorEnter e) {
            record(MONITOR_ENTER, e);
        }

        @Override
        public void monitorWait(MonitorWait w) {
            record(MONITOR_WAIT, w);
        }

        @Override
        public void cpuSample(CpuSample s) {
            record(CPU_SAMPLE, s);
        }

        @Override
        public void lockSummary(LockSummary s) {
            record(LOCK_SUMMARY, s);
        }

        @Override
        public void stackBudget(StackBudget b) {
            record(STACK_BUDGET, b);
        }

        @Override
        public void deepLock(DeepLock l) {
            record(DEEP_LOCK, l);
        }

        @Override
        public void deepSite(DeepSite s) {
            record(DEEP_SITE, s);
        }

        @Override
        public void carrierMount(CarrierMount m) {
            record(CARRIER_MOUNT, m);
        }

        @Override
        public void deepRelease(DeepRelease r) {
            record(DEEP_RELEASE, r);
        }

        @Override
        public void deepInfo(DeepInfo i) {
            record(DEEP_INFO, i);
        }

        @Override
        public void sleep(Interval i) {
            record(SLEEP, i);
        }

        @Override
        public void jdkPark(JdkPark p) {
            record(JDK_PARK, p);
        }

        @Override
        public void blockingIo(Interval i) {
            record(BLOCKING_IO, i);
        }

        @Override
        public void cpuSamplingPeriod(long nanos) {
            record(CPU_SAMPLING_PERIOD, nanos);
        }

        @Override
        public void threadCpu(ThreadCpu t) {
            record(THREAD_CPU, t);
        }

        @Override
        public void machineCpu(MachineCpu m) {
            record(MACHINE_CPU, m);
        }

        @Override
        public void threadLife(ThreadLife t) {
            record(THREAD_LIFE, t);
        }

        @Override
        public void pinned(Interval i) {
            record(PINNED, i);
        }

        @Override
        public void virtualThreadCarriers(int count) {
            record(VIRTUAL_THREAD_CARRIERS, count);
        }

        @Override
        public void finish(RecordingInfo info) {
            record(FINISH, info);
        }

        @Override
        public void thread(ThreadRef t) {
            record(THREAD, t);
        }
    }
}
