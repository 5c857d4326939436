package dev.lockscope.e2e;

import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A made-up recording with many contention records, for the HTML report's size and speed: parks of
 * 100 threads on 50 locks from 40 waiter chains, each woken by an unpark from one of 40 owner
 * chains, combined so that every park is a distinct blame entry; plus CPU samples between parks.
 */
final class SyntheticRecording {
    static final long START = 1_767_225_600_000_000_000L;
    static final int THREADS = 100, LOCKS = 50, CHAINS = 40;

    private SyntheticRecording() {
    }

    static LockRecording of(int parks) {
        List<ThreadRef> threads = new ArrayList<>();
        Map<Long, ThreadRef> byTid = new HashMap<>();
        for (int t = 0; t < THREADS; t++) {
            ThreadRef ref = new ThreadRef(100 + t, 5000 + t, "pool-1-thread-" + t);
            threads.add(ref);
            byTid.put(ref.javaTid(), ref);
        }
        List<ParkWait> waits = new ArrayList<>(parks);
        List<Unpark> unparks = new ArrayList<>(parks);
        List<CpuSample> samples = new ArrayList<>();
        long perThread = (parks + THREADS - 1) / THREADS;
        long slot = 100_000; // 100 µs per park and the running time after it
        for (int i = 0; i < parks; i++) {
            ThreadRef t = threads.get(i % THREADS);
            ThreadRef owner = threads.get((i + 1) % THREADS);
            int lock = (i / THREADS) % LOCKS;
            int waiterChain = (i / (THREADS * LOCKS)) % CHAINS;
            int ownerChain = (i / THREADS + i % CHAINS) % CHAINS;
            long begin = START + (i / THREADS) * slot;
            long end = begin + slot / 2 + (i % 7) * 1000;
            long seq = 2L * i + 1;
            waits.add(new ParkWait(t, "java.util.concurrent.locks.ReentrantLock$NonfairSync", 0x1000 + lock, begin, end, seq,
                    seq + 1, false, owner.javaTid(), owner.name(), 0, 0, chain("reserve", waiterChain, lock)));
            unparks.add(new Unpark(owner, end, seq + 1, t.javaTid(), t.name(), "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                    0x1000 + lock, chain("release", ownerChain, lock)));
            samples.add(new CpuSample(t, end + 10_000, List.of("com.example.store.Shard.compute:10")));
        }
        long endNanos = START + perThread * slot + slot;
        waits.sort(java.util.Comparator.comparingLong(ParkWait::beginNanos).thenComparingLong(ParkWait::beginSeq));
        samples.sort(java.util.Comparator.comparingLong(CpuSample::timeNanos));
        return new LockRecording(Path.of("synthetic-" + parks + ".jfr"), START, endNanos, byTid, waits, unparks,
                List.of(), List.of(), samples, List.of());
    }

    /** A call chain, innermost first, distinct per (kind, n), through the lock's shard. */
    private static List<String> chain(String kind, int n, int lock) {
        return List.of(
                "java.util.concurrent.locks.LockSupport." + (kind.equals("reserve") ? "park" : "unpark"),
                "java.util.concurrent.locks.ReentrantLock." + (kind.equals("reserve") ? "lock:322" : "unlock:494"),
                "com.example.store.Shard." + kind + ":" + (100 + lock),
                "com.example.service.Handler" + n + "." + kind + "Items:" + (20 + n),
                "com.example.service.Dispatcher.dispatch:" + (50 + n % 5),
                "java.util.concurrent.ThreadPoolExecutor.runWorker:1144",
                "java.lang.Thread.run:840");
    }
}
