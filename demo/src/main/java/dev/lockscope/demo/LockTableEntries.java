package dev.lockscope.demo;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock table like a database's (Derby's lock-table entries): each operation locks the entry of a
 * random key, creating the entry's mutex when nobody holds it and dropping it when the last user
 * leaves, so the contention is spread over thousands of short-lived {@code ReentrantLock} objects,
 * each waited for a few times. Grouped by lock site they are one lock, the bottleneck; one by one
 * none of them ranks. A second lock, {@link #audit}, is one long-lived object with less wait in all.
 */
final class LockTableEntries implements Workload {
    static final int KEYS = 32;
    static final long ENTRY_MS = 2;
    static final long AUDIT_MS = 2;

    /** An entry's mutex and how many threads use it now (guarded by the map's per-key compute). */
    private static final class Entry {
        final ReentrantLock mutex = new ReentrantLock();
        int users;
    }

    private final ConcurrentHashMap<Integer, Entry> table = new ConcurrentHashMap<>();
    private final ReentrantLock audit = new ReentrantLock();
    private long audited;

    @Override
    public long operation() throws InterruptedException {
        int key = ThreadLocalRandom.current().nextInt(KEYS);
        lockEntry(key);
        if (ThreadLocalRandom.current().nextInt(16) == 0) {
            audit();
        }
        return 1;
    }

    private void lockEntry(int key) throws InterruptedException {
        Entry e = table.compute(key, (k, old) -> {
            Entry entry = old == null ? new Entry() : old;
            entry.users++;
            return entry;
        });
        e.mutex.lock();
        try {
            Workload.sleep(ENTRY_MS);
        } finally {
            e.mutex.unlock();
            table.compute(key, (k, old) -> --old.users == 0 ? null : old); // the last user drops the entry
        }
    }

    private void audit() throws InterruptedException {
        audit.lock();
        try {
            audited++;
            Workload.sleep(AUDIT_MS);
        } finally {
            audit.unlock();
        }
    }
}
