package dev.lockscope.core;

/**
 * How threads wait on a lock: parked on a java.util.concurrent blocker, blocked entering a monitor, or
 * in {@code Object.wait} on a monitor until another thread's {@code notify} (a lock built on wait/notify,
 * such as a database's row locks).
 */
public enum LockKind {
    PARK("park"),
    MONITOR("monitor"),
    /** {@code Object.wait} woken by another thread's notify: only such waits are counted, not timeouts. */
    WAIT("wait");

    private final String label;

    LockKind(String label) {
        this.label = label;
    }

    /** The name used in JSON and tables. */
    public String label() {
        return label;
    }
}
