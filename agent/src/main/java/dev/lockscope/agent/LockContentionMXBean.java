package dev.lockscope.agent;

/**
 * The live lock-contention numbers of the metrics endpoint as a JMX MXBean,
 * {@code dev.lockscope:type=LockContention} (JConsole, VisualVM, any JMX exporter). Every read takes
 * a fresh snapshot.
 */
public interface LockContentionMXBean {
    /** The locks with the most wait, then one entry named "other" with the rest summed. */
    LockEntry[] getTopLocks();

    int getLocks();

    long getUntrackedParks();

    /** Seconds virtual threads spent pinned, or -1 when not recorded. */
    double getPinnedVirtualThreadSeconds();

    long getHookErrors();

    /** Park events the stack budget refused: counted in every total, their call chains not recorded. */
    long getStackBudgetRefusedParks();

    /** Unpark events (a releaser's call chain) the stack budget refused. */
    long getStackBudgetRefusedUnparks();

    long getRecordingBytes();

    /** One lock's numbers (a CompositeData to JMX clients). */
    final class LockEntry {
        private final LiveMetrics.Lock lock;

        LockEntry(LiveMetrics.Lock lock) {
            this.lock = lock;
        }

        public String getName() {
            return lock.name();
        }

        public String getKind() {
            return lock.kind();
        }

        public String getClassName() {
            return lock.className();
        }

        public long getWaits() {
            return lock.waits();
        }

        public double getWaitSeconds() {
            return lock.waitNanos() / 1e9;
        }

        public double getContendedSeconds() {
            return lock.contendedNanos() / 1e9;
        }

        /** NaN when unknown (no hand-off yet, or "other"). */
        public double getHoldSeconds() {
            return lock.holdNanos() / 1e9;
        }

        public int getWaitersNow() {
            return lock.waitersNow();
        }

        /** "method share" pairs, most first. */
        public String[] getOwnerMethods() {
            return lock.ownerMethods().stream().map(e -> e.getKey() + " " + e.getValue()).toArray(String[]::new);
        }
    }
}
