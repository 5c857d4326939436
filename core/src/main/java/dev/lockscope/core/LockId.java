package dev.lockscope.core;

/**
 * Identity of one lock in a recording, or of one row of the table ({@link LockMetrics#id()}): the one key by
 * which the table, owner blame, the rules and what-if join their locks.
 *
 * @param kind      park (java.util.concurrent blocker), monitor, or wait (Object.wait woken by a notify)
 * @param lockClass the blocker's class (e.g. {@code java.util.concurrent.locks.ReentrantLock$NonfairSync})
 *                  or the monitor object's class
 * @param id        identity hash in hex for blockers; the JVM monitor address in hex for monitors
 *                  (stable only while the monitor stays inflated, see docs/owner-blame.md); for a row of
 *                  objects grouped by role ({@link LockSites}), {@code at } and the row's site
 */
public record LockId(LockKind kind, String lockClass, String id) implements Comparable<LockId> {
    public static LockId blocker(String blockerClass, int identityHash) {
        return new LockId(LockKind.PARK, blockerClass, Integer.toHexString(identityHash));
    }

    public static LockId monitor(String monitorClass, long address) {
        return new LockId(LockKind.MONITOR, monitorClass, Long.toHexString(address)); // the same id as locks[].identityHash
    }

    /** {@code Object.wait} on a monitor woken by another thread: a lock built on wait/notify ({@link LockKind#WAIT}). */
    public static LockId waitOn(String monitorClass, long address) {
        return new LockId(LockKind.WAIT, monitorClass, Long.toHexString(address));
    }

    /** {@code class@id}, the form shown to users; {@code class at Frame.method:line} for a lock site. */
    public String label() {
        return LockMetrics.label(lockClass, id);
    }

    @Override
    public int compareTo(LockId o) {
        int c = kind.compareTo(o.kind);
        if (c == 0) {
            c = lockClass.compareTo(o.lockClass);
        }
        return c != 0 ? c : id.compareTo(o.id);
    }
}
