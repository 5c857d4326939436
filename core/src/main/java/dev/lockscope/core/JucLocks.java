package dev.lockscope.core;

/**
 * The {@code java.util.concurrent} lock classes whose parks lockscope reads by what the class does, in one place:
 * whom a park on each waits for, and what its hand-offs tell. Blocker classes are the parks' {@code blocker}s, the
 * locks' synchronizers ({@code ReentrantLock$NonfairSync}).
 */
public final class JucLocks {
    private static final String REENTRANT_LOCK = "java.util.concurrent.locks.ReentrantLock$";
    private static final String READ_WRITE_LOCK = "java.util.concurrent.locks.ReentrantReadWriteLock$";
    private static final String STAMPED_LOCK = "java.util.concurrent.locks.StampedLock";

    private JucLocks() {
    }

    /** A ReentrantLock's sync: one holder at a time, so the time from one hand-off to the next is one hold. */
    public static boolean isExclusive(String blockerClass) {
        return blockerClass.startsWith(REENTRANT_LOCK);
    }

    /**
     * A ReentrantLock's or ReentrantReadWriteLock's sync: its waiter is woken by a holder's unlock, whose unpark names
     * the holder and the code that released it (a read-write lock's readers hold it together, so no hold is one).
     */
    public static boolean isReleasedByUnlock(String blockerClass) {
        return isExclusive(blockerClass) || blockerClass.startsWith(READ_WRITE_LOCK);
    }

    /** Those and StampedLock: a park there waits for a holder (not for work, a signal or a permit). */
    public static boolean hasHolder(String blockerClass) {
        return isReleasedByUnlock(blockerClass) || blockerClass.equals(STAMPED_LOCK);
    }
}
