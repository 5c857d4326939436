package dev.lockscope.report.stream;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.BlameAnalysis;
import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.EventOrder;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;
import dev.lockscope.analysis.scale.ContendedLock;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Run in a JVM of its own with a small heap by {@link BoundedHeapIT}: feeds a synthetic recording of
 * {@code args[0]} rounds (each a park, its release and wake-up, and every few rounds a contended
 * monitor entry and a CPU sample) through every analysis {@code lockscope report} runs, and prints
 * a few totals. With state that grows with the number of events it runs out of memory.
 */
public final class SyntheticStream {
    static final int THREADS = 16;
    static final int LOCKS = 4;
    static final String RL = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
    private static final long START = 1_767_225_600_000_000_000L;

    private SyntheticStream() {
    }

    public static void main(String[] args) {
        long rounds = Long.parseLong(args[0]);
        ReportBuilder report = new ReportBuilder(ContentionOptions.DEFAULTS, List.of(dev.lockscope.analysis.blame.Aspect.LOCK,
                dev.lockscope.analysis.blame.Aspect.OWNER_METHOD), false, true);
        BlameAnalysis blame = new BlameAnalysis(); // the sweep's owners
        List<RecordingVisitor> visitors = new ArrayList<>(List.of(blame));
        visitors.addAll(report.visitors());
        EventOrder order = new EventOrder(1 << 14, visitors);

        List<ThreadRef> threads = new ArrayList<>();
        Map<Long, ThreadRef> byTid = new HashMap<>();
        for (int t = 0; t < THREADS; t++) {
            ThreadRef ref = new ThreadRef(100 + t, 5000 + t, "worker-" + t);
            threads.add(ref);
            byTid.put(ref.javaTid(), ref);
        }
        List<List<String>> waiterStacks = List.of(List.of("app.Store.put:10", "app.Main.run:5"),
                List.of("app.Store.get:20", "app.Main.run:6"));
        List<List<String>> ownerStacks = List.of(
                List.of("java.util.concurrent.locks.ReentrantLock.unlock:494", "app.Store.put:12", "app.Main.run:5"),
                List.of("java.util.concurrent.locks.ReentrantLock.unlock:494", "app.Store.get:22", "app.Main.run:6"));
        long seq = 0;
        long t = START;
        for (long i = 0; i < rounds; i++, t += 1_000) {
            ThreadRef waiter = threads.get((int) (i % THREADS));
            ThreadRef owner = threads.get((int) ((i + 1) % THREADS));
            int lock = (int) (i % LOCKS);
            long begin = ++seq;
            long release = ++seq;
            order.unpark(new Unpark(owner, t + 500, release, waiter.javaTid(), waiter.name(), RL, lock,
                    ownerStacks.get((int) (i % 2))));
            order.park(new ParkWait(waiter, RL, lock, t, t + 600, begin, release, false, 0, null, 0, 0,
                    waiterStacks.get((int) (i % 2))));
            if (i % 8 == 0) {
                order.timed(t + 700, new MonitorEnter(waiter, "app.Cache", 0x7f00, t, t + 700, owner, waiterStacks.get(0)));
            }
            if (i % 4 == 0) {
                order.timed(t + 800, new CpuSample(owner, t + 800, ownerStacks.get(1)));
            }
        }
        RecordingInfo info = new RecordingInfo(Path.of("synthetic.jfr"), START, t, byTid);
        order.finish(info);
        Report built = report.build(info);
        LockContention table = built.contention();
        long parks = table.locks().stream().filter(m -> m.kind().label().equals("park")).mapToLong(m -> m.timesParked()).sum();
        System.out.println("parks " + parks);
        System.out.println("contention spans " + built.blame().tree().count());
        System.out.println("timeline threads " + built.timeline().threads().size());
        System.out.println("sweep locks " + ContendedLock.of(table, table.rows(), blame.result()).size());
    }
}
