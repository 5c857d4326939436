package dev.lockscope.report.model;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;
import dev.lockscope.core.ThreadNames;
import dev.lockscope.report.JsonReport;
import dev.lockscope.report.TextReport;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17: the cost of a report grows with the events, not with the threads squared. A server-like
 * recording (every thread parks a few times on one of a few locks, woken by the thread before it on
 * that lock, a few waiting at once; monitor entries and CPU samples beside them) with 1,000 and then
 * 10,000 platform threads, and with 10,000 and then 100,000 virtual threads (CI: a tenth), goes through the whole
 * report (every analysis of the one pass, the text and JSON renderers). Ten times the threads and
 * events must cost about ten times the work, measured as the bytes this thread allocates (work, not
 * time: the same on a loaded machine); a structure that grows with threads × threads (a blame key
 * per waiter and owner pair, a pass over all threads per event) makes it a hundred times.
 */
class ThreadScalingTest {
    private static final long US = 1_000;
    private static final long START = 1_767_225_600_000_000_000L;
    private static final String SYNC = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
    private static final int LOCKS = 8;
    /** Ten times the threads must cost less than this many times the work (linear: about 10). */
    private static final double MAX_GROWTH = 20;
    private static boolean warmedUp;

    /**
     * The sizes (10,000 platform, 100,000 virtual threads) with {@code -Dlockscope.scaling.full=true}
     * (about 10 minutes on a loaded 2-core machine); CI runs a tenth of them, which shows the same growth.
     */
    private static final int SCALE = Boolean.getBoolean("lockscope.scaling.full") ? 10 : 1;

    @Test
    void tenTimesThePlatformThreadsCostAboutTenTimesTheWork() {
        growth("platform", 100 * SCALE, 4, false);
    }

    @Test
    void tenTimesTheVirtualThreadsCostAboutTenTimesTheWork() {
        growth("virtual", 1_000 * SCALE, 1, true);
    }

    private static void growth(String kind, int threads, int parksPerThread, boolean virtual) {
        long small = work(server(threads, parksPerThread, virtual));
        long large = work(server(10 * threads, parksPerThread, virtual));
        double growth = (double) large / small;
        System.out.printf("%s threads: %,d -> %,d bytes allocated, %,d -> %,d bytes (x%.1f)%n", kind, threads, small,
                10 * threads, large, growth);
        assertThat(growth).as("work for %d vs %d %s threads (%d vs %d bytes)", 10 * threads, threads, kind, large, small)
                .isLessThan(MAX_GROWTH);
    }

    @Test
    void theWorkMeasureSeesAQuadraticPass() {
        // the check above can fail: work that visits every thread at every event grows a hundredfold
        long small = allocated(() -> quadratic(2_000));
        long large = allocated(() -> quadratic(20_000));
        assertThat((double) large / small).isGreaterThan(MAX_GROWTH);
    }

    /** Bytes allocated by this thread to build the report and render it as text and JSON. */
    private static long work(LockRecording recording) {
        if (!warmedUp) { // one-time costs (class loading, the JSON mapper) are not work per thread
            warmedUp = true;
            work(server(100, 1, false));
        }
        long[] lines = new long[1];
        long bytes = allocated(() -> {
            Report report = ReportBuilder.read(recording::replay, new ContentionOptions(0, 0), Aspect.DEFAULT, false, false);
            lines[0] = TextReport.render(report, null, 10).lines().count() + JsonReport.render(report).length();
        });
        assertThat(lines[0]).isPositive();
        return bytes;
    }

    private static long allocated(Runnable work) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        work.run();
        return threads.getThreadAllocatedBytes(id) - before;
    }

    /** A copy of every thread known so far at every 16th new one: what a pass over all threads per event allocates. */
    private static void quadratic(int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("t" + i);
            if (i % 16 == 0) {
                assertThat(List.copyOf(names)).hasSize(i + 1);
            }
        }
    }

    /**
     * {@code threads} threads in pools of 100 names, each parking {@code parksPerThread} times on lock
     * {@code thread % LOCKS}; each park lasts 300 µs and is woken by the lock's previous parker, 1 in
     * 40 µs per lock parks, so a few threads wait on each lock at once. Every thread also blocks once on
     * a shared monitor and is sampled twice. Stacks are a few per lock, not per thread.
     */
    private static LockRecording server(int threads, int parksPerThread, boolean virtual) {
        ThreadRef[] refs = new ThreadRef[threads];
        Map<Long, ThreadRef> byId = new HashMap<>();
        for (int i = 0; i < threads; i++) {
            long tid = 1000 + i;
            String name = virtual ? ThreadNames.virtual(tid, i % 2 == 0 ? null : "handler-" + (i % 100))
                    : "pool-" + (i / 100) + "-thread-" + (i % 100);
            refs[i] = new ThreadRef(tid, virtual ? 0 : 50_000 + i, name, virtual);
            byId.put(tid, refs[i]);
        }
        List<ParkWait> parks = new ArrayList<>();
        List<Unpark> unparks = new ArrayList<>();
        List<MonitorEnter> enters = new ArrayList<>();
        List<CpuSample> samples = new ArrayList<>();
        long[] handoffs = new long[threads];
        int[] previousOnLock = new int[LOCKS];
        java.util.Arrays.fill(previousOnLock, -1);
        long slot = 40 * US / LOCKS;
        long event = 0;
        for (int round = 0; round < parksPerThread; round++) {
            for (int i = 0; i < threads; i++, event++) {
                int lock = i % LOCKS;
                long begin = START + event * slot;
                long end = begin + 300 * US;
                ThreadRef waiter = refs[i];
                int waker = previousOnLock[lock] < 0 ? (i + 1) % threads : previousOnLock[lock];
                long parkSeq = handoffs[i]++;
                unparks.add(new Unpark(refs[waker], end - 2 * US, parkSeq + 1, waiter.javaTid(), waiter.name(), SYNC,
                        0x1000 + lock, stack("unlock", lock, round)));
                parks.add(new ParkWait(waiter, SYNC, 0x1000 + lock, begin, end, parkSeq, parkSeq + 1, false,
                        refs[waker].javaTid(), refs[waker].name(), 0, 0, stack("lock", lock, round)));
                previousOnLock[lock] = i;
                if (round == 0) {
                    long b = end + 5 * US;
                    enters.add(new MonitorEnter(waiter, "com.app.Registry", 0x7f00, b, b + 50 * US,
                            refs[(i + threads - 1) % threads], stack("register", lock % 2, 0)));
                    samples.add(new CpuSample(waiter, b + 60 * US, stack("compute", lock, 0)));
                    samples.add(new CpuSample(waiter, b + 20_060 * US, stack("compute", lock, 1)));
                }
            }
        }
        long endOfRecording = START + event * slot + 1_000_000 * US;
        return new LockRecording(Path.of("/tmp/threads.jfr"), START, endOfRecording, byId, parks, unparks, enters,
                List.of(), samples, List.of());
    }

    private static final Map<String, List<String>> STACKS = new HashMap<>();

    /** One list per distinct stack, as the reader hands them out. */
    private static List<String> stack(String what, int lock, int variant) {
        return STACKS.computeIfAbsent(what + lock + "/" + variant, k -> switch (what) {
            case "lock" -> List.of("java.util.concurrent.locks.LockSupport.park:211",
                    "java.util.concurrent.locks.ReentrantLock.lock:322", "com.app.Store.read" + lock + ":" + (10 + variant),
                    "com.app.Handler.handle:40", "java.lang.Thread.run:833");
            case "unlock" -> List.of("java.util.concurrent.locks.LockSupport.unpark:177",
                    "java.util.concurrent.locks.ReentrantLock.unlock:494", "com.app.Store.read" + lock + ":" + (20 + variant),
                    "com.app.Handler.handle:40", "java.lang.Thread.run:833");
            case "register" -> List.of("com.app.Registry.add:7", "com.app.Handler.handle:44", "java.lang.Thread.run:833");
            default -> List.of("com.app.Codec.encode:" + (30 + variant), "com.app.Store.read" + lock + ":15",
                    "com.app.Handler.handle:41", "java.lang.Thread.run:833");
        });
    }
}
